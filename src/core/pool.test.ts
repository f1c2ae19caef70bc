import { describe, expect, it } from 'vitest';
import { AnswerPendingError } from './errors.js';
import { mapPool } from './pool.js';
import { chunks, shuffled } from './rng.js';

describe('mapPool', () => {
  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapPool([5, 1, 4, 2, 3], 2, async (ms, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(peak).toBe(2);
  });

  it('runs one at a time for a limit below 1 (or not a number)', async () => {
    for (const limit of [0, -3, Number.NaN]) {
      let inFlight = 0;
      let peak = 0;
      const out = await mapPool([1, 2, 3], limit, async (x) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return x * 2;
      });
      expect(out).toEqual([2, 4, 6]);
      expect(peak).toBe(1);
    }
  });

  it('starts no more items after a failure (a spent budget sends nothing more)', async () => {
    const ran: number[] = [];
    const run = mapPool([1, 2, 3, 4], 1, (x) => {
      ran.push(x);
      return x === 2 ? Promise.reject(new Error('budget')) : Promise.resolve(x);
    });
    await expect(run).rejects.toThrow('budget');
    expect(ran).toEqual([1, 2]);
  });

  it('propagates a failure', async () => {
    await expect(
      mapPool([1, 2], 4, (x) => (x === 2 ? Promise.reject(new Error('boom')) : Promise.resolve(x))),
    ).rejects.toThrow('boom');
  });
});

describe('waiting for handoff answers', () => {
  it('mapPool runs every item past a pending answer, then rethrows the first pending', async () => {
    const ran: number[] = [];
    const run = mapPool([1, 2, 3, 4, 5], 2, (x) => {
      ran.push(x);
      return x % 2 === 0 ? Promise.reject(new AnswerPendingError(`r${x}`)) : Promise.resolve(x);
    });
    await expect(run).rejects.toMatchObject({ requestId: 'r2' });
    expect(ran.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('seeded shuffling and chunks', () => {
  it('is a permutation, reproducible from the seed, different for another seed', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const a = shuffled(items, 7);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(shuffled(items, 7)).toEqual(a);
    expect(shuffled(items, 8)).not.toEqual(a);
  });

  it('cuts consecutive chunks; size 0 keeps everything together', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([1, 2, 3], 0)).toEqual([[1, 2, 3]]);
    expect(chunks([], 3)).toEqual([]);
  });
});
