import { describe, expect, it } from 'vitest';
import type { Check } from '../core/task.js';
import { forbiddenTerm, negativeWordCheck } from '../core/negative-check.js';
import {
  arrangeChecks,
  correctionsToChecks,
  dedupeChecks,
  filterUsefulChecks,
  isUsefulCheck,
  splitSentences,
} from './corrections.js';
import { compileUserPatterns } from './correction-user-patterns.js';

/** Enough of the rule judge for these tests: case-insensitive contains and `(?i)` regexes. */
function passes(check: Check, answer: string): boolean {
  const arg = String(check.arg ?? '');
  if (check.op === 'contains') return answer.toLowerCase().includes(arg.toLowerCase());
  if (check.op === 'regex') {
    const caseless = arg.startsWith('(?i)');
    return new RegExp(caseless ? arg.slice(4) : arg, caseless ? 'i' : '').test(answer);
  }
  throw new Error(`unexpected op ${check.op}`);
}

const NOT_NPM: Check = { op: 'regex', arg: String.raw`(?i)^(?![\s\S]*\bnpm\b)` };
/** A user's own phrases, as they would write them in config. */
const PATTERNS = compileUserPatterns([
  {
    name: 'swap',
    regex: '\\buse `?([\\w.-]+)`? instead of `?([\\w.-]+)`?',
    checks: [
      { op: 'contains', arg: '$1' },
      { op: 'not_contains', arg: '$2' },
    ],
  },
  { name: 'never-edit', regex: '\\bnever edit `([^`]+)`', checks: [{ op: 'not_contains', arg: '$1' }] },
  { name: 'always-include', regex: '\\balways include "([^"]+)"', checks: [{ op: 'contains', arg: '$1' }] },
  { name: 'limit', regex: '\\bunder (\\d+) chars', checks: [{ op: 'max_chars', arg: '$1' }] },
]);
const parse = (text: string) => correctionsToChecks(text, PATTERNS);
const checksOf = (text: string): Check[] => parse(text).checks;

describe('the negative check a pattern emits', () => {
  it('is the word-bounded negative lookahead', () => {
    expect(checksOf('use pnpm instead of npm')[1]).toEqual(NOT_NPM);
  });

  it('does not count pnpm as npm', () => {
    expect(passes(NOT_NPM, 'Run `pnpm add zod`.')).toBe(true);
    expect(passes(NOT_NPM, 'Run `npm install zod`.')).toBe(false);
    expect(passes(NOT_NPM, 'NPM install')).toBe(false);
    expect(passes(NOT_NPM, 'first line\nthen npm i')).toBe(false);
    expect(passes(NOT_NPM, 'npmrc-free; npx is fine')).toBe(true);
  });

  it('rejects a path anywhere in a multi-line answer', () => {
    const [check] = checksOf('never edit `dist/`');
    expect(check).toBeDefined();
    if (check === undefined) return;
    expect(passes(check, 'Edited src/a.ts\nand dist/a.js')).toBe(false);
    expect(passes(check, 'Edited src/a.ts only')).toBe(true);
    expect(passes(check, 'Edited predist/a.js')).toBe(true);
  });

  it.each([
    ['use pnpm instead of npm', 'npm'],
    ['never edit `dist/`', 'dist/'],
    ['never edit `git push --force`', 'git push --force'],
  ])('%j reads back to %j (the mock optimizer does this)', (text, term) => {
    const negative = checksOf(text).find((check) => check.op === 'regex');
    expect(negative && forbiddenTerm(negative)).toBe(term);
  });

  it('ignores phrases inside pasted code blocks and matches nothing without patterns', () => {
    expect(checksOf('```\nnpm WARN: use pnpm instead of npm\n```')).toEqual([]);
    expect(correctionsToChecks('use pnpm instead of npm', []).checks).toEqual([]);
  });
});

describe('splitSentences', () => {
  it('splits on sentence ends and newlines but not inside file names or at semicolons', () => {
    expect(splitSentences('Edit CHANGELOG.md now. Then stop!\nok; done')).toEqual([
      'Edit CHANGELOG.md now.',
      'Then stop!',
      'ok; done',
    ]);
  });
});

describe('dedupeChecks', () => {
  it('keeps the first of equal checks', () => {
    expect(
      dedupeChecks([
        { op: 'contains', arg: 'a' },
        { op: 'contains', arg: 'a' },
        { op: 'max_chars', arg: 5 },
        { op: 'max_chars', arg: '5' },
        { op: 'no_refusal' },
      ]),
    ).toEqual([{ op: 'contains', arg: 'a' }, { op: 'max_chars', arg: 5 }, { op: 'no_refusal' }]);
  });
});

describe('correctionsToChecks: evidence', () => {
  it('gives the sentence of every check, same length and order', () => {
    const result = parse(
      'Hmm, that failed. Use pnpm instead of npm! Also never edit `dist/`.\nkeep it under 300 chars',
    );
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'max_chars', arg: 300 },
    ]);
    expect(result.evidence).toEqual([
      'Use pnpm instead of npm!',
      'Use pnpm instead of npm!',
      'Also never edit `dist/`.',
      'keep it under 300 chars',
    ]);
  });
});

describe('correctionsToChecks: order for the mock optimizer', () => {
  it('never leaves a lone contains directly before an unrelated negative check', () => {
    const result = parse('always include "Refs: #"; never edit `dist/`. use pnpm instead of npm');
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'contains', arg: 'Refs: #' },
    ]);
  });

  it('breaks a pair whose half is already taken, keeping the other half', () => {
    expect(checksOf('use pnpm instead of npm. use pnpm instead of yarn')).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('yarn'),
    ]);
  });

  it('arrangeChecks reorders a concatenation of several results', () => {
    const a = parse('always include "CHANGELOG.md"');
    const b = parse('never edit `dist/`');
    const joined = arrangeChecks([...a.checks, ...b.checks], [...a.evidence, ...b.evidence]);
    expect(joined).toEqual({
      checks: [negativeWordCheck('dist/'), { op: 'contains', arg: 'CHANGELOG.md' }],
      evidence: ['never edit `dist/`', 'always include "CHANGELOG.md"'],
    });
  });
});

describe('isUsefulCheck', () => {
  const attempt = "I'll add it with npm:\n\nnpm install zod";

  it('keeps a check that fails on the first attempt', () => {
    expect(isUsefulCheck({ op: 'contains', arg: 'pnpm' }, attempt)).toBe(true);
    expect(isUsefulCheck(NOT_NPM, attempt)).toBe(true);
  });

  it('drops a check the first attempt already passed', () => {
    expect(isUsefulCheck({ op: 'contains', arg: 'zod' }, attempt)).toBe(false);
    expect(isUsefulCheck(negativeWordCheck('dist/'), attempt)).toBe(false);
    expect(isUsefulCheck({ op: 'max_chars', arg: 500 }, attempt)).toBe(false);
  });

  it('drops a malformed check', () => {
    expect(isUsefulCheck({ op: 'regex', arg: '([' }, attempt)).toBe(false);
    expect(isUsefulCheck({ op: 'max_chars', arg: 'many' }, attempt)).toBe(false);
    expect(isUsefulCheck({ op: 'contains', arg: ' ' }, '')).toBe(false);
  });

  it('drops checks that contradict the rest of their correction', () => {
    const contains = { op: 'contains', arg: 'npm ci' };
    expect(isUsefulCheck(contains, 'yarn', [contains, NOT_NPM])).toBe(false);
    expect(isUsefulCheck(NOT_NPM, attempt, [contains, NOT_NPM])).toBe(false);
    const tooShort = { op: 'max_chars', arg: 5 };
    expect(isUsefulCheck(tooShort, attempt, [{ op: 'contains', arg: 'Refs: #123' }])).toBe(false);
    expect(isUsefulCheck({ op: 'contains', arg: 'Refs: #123' }, attempt, [tooShort])).toBe(false);
    expect(
      isUsefulCheck({ op: 'max_chars', arg: 20 }, attempt, [{ op: 'contains', arg: 'Refs: #123' }]),
    ).toBe(true);
  });

  it('skips the first-attempt test when no attempt was recorded', () => {
    expect(isUsefulCheck(NOT_NPM, '')).toBe(true);
    expect(isUsefulCheck({ op: 'contains', arg: 'pnpm' }, '  ')).toBe(true);
  });
});

describe('filterUsefulChecks', () => {
  it('keeps the checks that fail on the corrected answer, with their evidence', () => {
    const result = parse(
      'use pnpm instead of npm. never edit `dist/`. always include "Refs: #". keep it under 10 chars',
    );
    const kept = filterUsefulChecks(result.checks, result.evidence, 'npm install zod\nRefs: #4');
    expect(kept).toEqual({
      checks: [{ op: 'contains', arg: 'pnpm' }, NOT_NPM, { op: 'max_chars', arg: 10 }],
      evidence: ['use pnpm instead of npm.', 'use pnpm instead of npm.', 'keep it under 10 chars'],
    });
  });

  it('moves the surviving contains of a pair away from an unrelated negative check', () => {
    const result = parse('use pnpm instead of npm; always include "CHANGELOG.md". never edit `dist/`');
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'contains', arg: 'CHANGELOG.md' },
    ]);
    // The attempt never said npm, so only "contains pnpm" is left of the pair; kept in place it would
    // sit right before the dist/ check and the mock would write "Use pnpm instead of dist/".
    const kept = filterUsefulChecks(result.checks, result.evidence, 'Ran yarn add zod, edited dist/');
    expect(kept).toEqual({
      checks: [
        negativeWordCheck('dist/'),
        { op: 'contains', arg: 'pnpm' },
        { op: 'contains', arg: 'CHANGELOG.md' },
      ],
      evidence: [
        'never edit `dist/`',
        'use pnpm instead of npm; always include "CHANGELOG.md".',
        'use pnpm instead of npm; always include "CHANGELOG.md".',
      ],
    });
  });

  it('drops both sides of a self-contradictory correction', () => {
    const checks: Check[] = [{ op: 'contains', arg: 'npm ci' }, NOT_NPM];
    expect(filterUsefulChecks(checks, ['a', 'a'], 'yarn install')).toEqual({ checks: [], evidence: [] });
  });

  it('judges contradictions within a sentence, not across sentences', () => {
    const checks = [{ op: 'contains', arg: 'npm ci' }, NOT_NPM];
    expect(filterUsefulChecks(checks, ['a', 'b'], 'yarn; then npm i').checks).toEqual([NOT_NPM, checks[0]]);
  });
});
