import { describe, expect, it } from 'vitest';
import { exactJudge, keywordScore, normalizeForExact, outcomeJudge } from './exact.js';

/** The mock backend's near miss: the reference minus its last two characters. */
function nearMiss(reference: string): string {
  return `approximately ${reference.slice(0, -2)} (format not applied)`;
}

describe('normalizeForExact', () => {
  it('lower-cases, turns non-word characters into spaces and collapses whitespace', () => {
    expect(normalizeForExact('  arXiv:2605.23904 ')).toBe('arxiv 2605 23904');
    expect(normalizeForExact('Here is the result. <answer>X</answer>')).toBe(
      'here is the result answer x answer',
    );
    expect(normalizeForExact('snake_case\tand\n\nnewlines')).toBe('snake_case and newlines');
  });

  it('keeps Unicode letters and digits as word characters', () => {
    expect(normalizeForExact('Größe: 5,0 м²')).toBe('größe 5 0 м²');
  });
});

describe('keywordScore', () => {
  it('counts unique reference tokens longer than 2 characters', () => {
    expect(keywordScore('the the cat sat', 'the cat')).toBeCloseTo(2 / 3, 10);
    expect(keywordScore('a b cd', 'anything')).toBe(0);
  });

  it('matches tokens as substrings of the response', () => {
    expect(keywordScore('Add login form', nearMiss('Add login form'))).toBe(1);
  });
});

describe('exactJudge', () => {
  it('scores the researcher near miss at 2/3 (arxiv and 2605 hit, 23904 misses)', () => {
    const score = exactJudge('arXiv:2605.23904', 'approximately arXiv:2605.239 (format not applied)');
    expect(score.hard).toBe(0);
    expect(score.soft).toBeCloseTo(0.6667, 4);
    expect(score.soft).toBe(2 / 3);
  });

  it.each([
    ['Fix null pointer in parser', 0.75],
    ['Remove dead code', 2 / 3],
    ['Fix CI pipeline', 0.5],
  ])('scores the programmer val near miss for %j at %d', (reference, soft) => {
    const score = exactJudge(reference, nearMiss(reference));
    expect(score.hard).toBe(0);
    expect(score.soft).toBe(soft);
  });

  it('gives the programmer val set its documented mixed baseline of 0.3194', () => {
    const softs = ['Fix null pointer in parser', 'Remove dead code', 'Fix CI pipeline'].map(
      (reference) => exactJudge(reference, nearMiss(reference)).soft,
    );
    const meanSoft = softs.reduce((sum, soft) => sum + soft, 0) / softs.length;
    expect(0.5 * 0 + 0.5 * meanSoft).toBeCloseTo(0.3194, 4);
  });

  it('passes a response that contains the reference', () => {
    expect(exactJudge('arXiv:2605.23904', 'Here is the result. <answer>arXiv:2605.23904</answer>')).toEqual({
      hard: 1,
      soft: 1,
      rationale: 'exact-match=1, keywords=1.0000',
    });
    expect(exactJudge('Fix CI pipeline', 'fix ci pipeline').hard).toBe(1);
  });

  it('never passes an empty reference', () => {
    expect(exactJudge(' ... ', 'anything')).toEqual({
      hard: 0,
      soft: 0,
      rationale: 'exact-match=0 (empty reference)',
    });
  });
});

describe('outcomeJudge', () => {
  it('labels success 1/1 and everything else 0/0', () => {
    expect(outcomeJudge({ outcome: 'success' })).toEqual({ hard: 1, soft: 1, rationale: 'outcome-derived' });
    for (const outcome of ['fail', 'mixed', 'unknown'] as const) {
      expect(outcomeJudge({ outcome })).toEqual({ hard: 0, soft: 0, rationale: 'outcome-derived' });
    }
  });
});
