import { describe, expect, it } from 'vitest';
import { forbiddenTerm, mentionsWord, negativeWordCheck } from './negative-check.js';

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
});
