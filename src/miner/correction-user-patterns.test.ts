import { describe, expect, it } from 'vitest';
import { correctionsToChecks } from './corrections.js';
import { compileUserPatterns } from './correction-user-patterns.js';

const one = (regex: string, arg = 'x') =>
  compileUserPatterns([{ name: 'p', regex, checks: [{ op: 'contains', arg }] }]);

describe('correction patterns from config run on RE2', () => {
  it('match in linear time, even a pattern that backtracks catastrophically elsewhere', () => {
    const started = performance.now();
    // A project's config may hold it; the sentence is the user's own text.
    expect(correctionsToChecks(`${'a'.repeat(40)}!`, one('^(a+)+$')).checks).toEqual([]);
    expect(correctionsToChecks(`${'ab '.repeat(20_000)}`, one('(\\w+\\s?)*=')).checks).toEqual([]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('keep JavaScript syntax: groups, named groups, lookbehinds, case-insensitive', () => {
    const patterns = compileUserPatterns([
      { name: 'swap', regex: '(?<=\\buse )(?<tool>\\w+)', checks: [{ op: 'contains', arg: '$1' }] },
    ]);
    expect(correctionsToChecks('Please USE pnpm here', patterns).checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
    ]);
  });

  it.each([
    ['use (?=pnpm)\\w+', 'lookaheads and backreferences need backtracking'],
    ['(\\w+) and \\1', 'lookaheads and backreferences need backtracking'],
    ['(unclosed', 'it does not compile'],
  ])('refuse %s in one line naming the pattern', (regex, why) => {
    expect(() => one(regex)).toThrow(
      `correction pattern "p": regex ${JSON.stringify(regex)} is refused: ${why}`,
    );
  });

  it('refuse a pattern too long or too large', () => {
    expect(() => one('a'.repeat(1001))).toThrow('is 1001 characters long, at most 1000');
    expect(() => one('(?:x?){900}y')).toThrow(/compiles to \d+ instructions, at most 1000/);
  });
});
