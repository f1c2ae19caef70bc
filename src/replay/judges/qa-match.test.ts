import { describe, expect, it } from 'vitest';
import { exactMatch, extractAnswer, normalizeAnswer, qaJudge, tokenF1 } from './qa-match.js';

describe('SQuAD-style normalisation and scoring', () => {
  it('lower-cases, strips punctuation and articles, collapses whitespace', () => {
    expect(normalizeAnswer('  The  Eiffel-Tower, in  a Paris! ')).toBe('eiffeltower in paris');
    expect(normalizeAnswer('An apple; the end.')).toBe('apple end');
    // Articles only as whole words.
    expect(normalizeAnswer('Theatre and anvil')).toBe('theatre and anvil');
  });

  it('exact match compares normalised strings', () => {
    expect(exactMatch('The Color Red.', 'color red')).toBe(1);
    expect(exactMatch('color red!', 'colour red')).toBe(0);
  });

  it('token F1 counts shared tokens with multiplicity', () => {
    // pred: run pnpm install now (4), gold: run pnpm install (3): same 3, p=3/4, r=1 -> 6/7.
    expect(tokenF1('run pnpm install now', 'run pnpm install')).toBeCloseTo(6 / 7, 10);
    expect(tokenF1('x b b', 'b c')).toBeCloseTo(0.4, 10);
    // 'a' is an article, so it is not a token.
    expect(tokenF1('a b b', 'b c')).toBeCloseTo(0.5, 10);
    expect(tokenF1('x', 'y')).toBe(0);
    expect(tokenF1('', '')).toBe(1);
    expect(tokenF1('the', 'something')).toBe(0);
  });

  it('scores the text inside <answer> tags and the best of several gold answers', () => {
    expect(extractAnswer('Sure. <answer>Paris</answer>')).toBe('Paris');
    const s = qaJudge(['City of Paris', 'Paris'], 'It is <answer>paris</answer>.');
    expect(s.hard).toBe(1);
    expect(s.soft).toBe(1);
  });
});
