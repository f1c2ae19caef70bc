import { describe, expect, it } from 'vitest';
import { forbiddenTerm, mentionsWord, negativeWordCheck, wordBoundedNegative } from './negative-check.js';

describe('negative word check', () => {
  it('round-trips the forbidden term', () => {
    for (const term of ['npm', 'dist/', 'yarn.lock', 'console.log(', '--force']) {
      expect(forbiddenTerm(negativeWordCheck(term))).toBe(term);
    }
    expect(forbiddenTerm({ op: 'regex', arg: 'abc' })).toBeNull();
    expect(forbiddenTerm({ op: 'contains', arg: 'npm' })).toBeNull();
  });

  it('is word-bounded: pnpm is not npm', () => {
    expect(mentionsWord('run pnpm install', 'npm')).toBe(false);
    expect(mentionsWord('run npm install', 'npm')).toBe(true);
    expect(mentionsWord('edit dist/index.js', 'dist/')).toBe(true);
    expect(mentionsWord('edit src/dist.ts', 'dist/')).toBe(false);
  });

  it('produces a pattern that works as a JS regex once the (?i) prefix becomes a flag', () => {
    const arg = String(negativeWordCheck('npm').arg).replace(/^\(\?i\)/, '');
    const re = new RegExp(arg, 'i');
    expect(re.test('use pnpm add zod')).toBe(true);
    expect(re.test('use NPM install zod')).toBe(false);
  });

  it('reads a not_contains of one word as the word-bounded not_mentions; phrases and other ops stay', () => {
    expect(wordBoundedNegative({ op: 'not_contains', arg: ' npm ', because: 'no npm' })).toEqual({
      op: 'not_mentions',
      arg: 'npm',
      because: 'no npm',
    });
    expect(wordBoundedNegative({ op: 'not_contains', arg: 'yarn.lock' })).toMatchObject({
      op: 'not_mentions',
    });
    expect(wordBoundedNegative({ op: 'not_contains', arg: 'npm install' })).toEqual({
      op: 'not_contains',
      arg: 'npm install',
    });
    expect(wordBoundedNegative({ op: 'contains', arg: 'npm' })).toEqual({ op: 'contains', arg: 'npm' });
    expect(forbiddenTerm({ op: 'not_mentions', arg: 'npm' })).toBe('npm');
  });
});
