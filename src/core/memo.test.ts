import { describe, expect, it } from 'vitest';
import { boundedMemo } from './memo.js';

describe('boundedMemo', () => {
  it('computes each key once while the cache holds it, and starts over when it is full', () => {
    const calls: number[] = [];
    const square = boundedMemo((n: number) => {
      calls.push(n);
      return n * n;
    }, 2);
    expect([square(2), square(2), square(3)]).toEqual([4, 4, 9]);
    expect(calls).toEqual([2, 3]);
    square(4); // full: the cache is dropped, then holds 4
    square(2);
    expect(calls).toEqual([2, 3, 4, 2]);
  });
});
