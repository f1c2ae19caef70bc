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
const checksOf = (text: string): Check[] => correctionsToChecks(text).checks;

describe('the negative check the miner emits', () => {
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
    ['never run `git push --force`', 'git push --force'],
  ])('%j reads back to %j (the mock optimizer does this)', (text, term) => {
    const negative = checksOf(text).find((check) => check.op === 'regex');
    expect(negative && forbiddenTerm(negative)).toBe(term);
  });
});

describe('correctionsToChecks: swaps', () => {
  const pnpmNotNpm: Check[] = [{ op: 'contains', arg: 'pnpm' }, NOT_NPM];

  it.each([
    'use pnpm instead of npm',
    'No, use pnpm instead of npm.',
    'use pnpm, not npm',
    'use pnpm not npm!',
    "don't use npm, use pnpm",
    'Do not use npm; use pnpm',
    'never use npm — use pnpm',
    'prefer pnpm over npm',
    'prefer pnpm to npm',
    'pnpm, not npm',
    'no, pnpm not npm',
    'it should be `pnpm` not `npm`',
    'instead of npm, use pnpm',
    'Use `pnpm` instead of `npm`.',
    'use "pnpm" instead of "npm"',
    'use ‘pnpm’ instead of “npm”',
  ])('%j → contains pnpm and the negative npm check', (text) => {
    expect(checksOf(text)).toEqual(pnpmNotNpm);
  });

  it('keeps multi-word quoted spans whole', () => {
    expect(checksOf('use `pnpm add` instead of `npm install`')).toEqual([
      { op: 'contains', arg: 'pnpm add' },
      negativeWordCheck('npm install'),
    ]);
  });

  it('keeps the case the user wrote', () => {
    expect(checksOf('use Vitest instead of Jest')[0]).toEqual({ op: 'contains', arg: 'Vitest' });
  });

  it('reads "use X instead" without a Y', () => {
    expect(checksOf('just use pnpm instead')).toEqual([{ op: 'contains', arg: 'pnpm' }]);
  });

  it('finds corrections in any sentence of a longer message', () => {
    const result = correctionsToChecks(
      'Hmm, that failed. Use pnpm instead of npm! The lockfile is pnpm-lock.yaml',
    );
    expect(result.checks).toEqual(pnpmNotNpm);
    expect(result.corrections).toEqual(['Use pnpm instead of npm!']);
  });

  it('ignores corrections inside pasted code blocks', () => {
    expect(checksOf('it printed:\n```\nnpm WARN deprecated foo: use bar instead of foo\n```\nwhy?')).toEqual(
      [],
    );
  });

  it.each([
    'use it instead of that',
    "it's not working",
    "that's not right",
    'tests not passing',
    'this is not done',
    'thanks, works now',
    'I use vim',
  ])('makes no check from %j', (text) => {
    expect(checksOf(text)).toEqual([]);
  });
});

describe('correctionsToChecks: always', () => {
  it('checks for a quoted span', () => {
    expect(checksOf('always include "Refs: #" and the ticket number in the footer')).toEqual([
      { op: 'contains', arg: 'Refs: #' },
    ]);
    expect(checksOf('please always add `Refs: #` at the bottom')).toEqual([
      { op: 'contains', arg: 'Refs: #' },
    ]);
    expect(checksOf("You should always run 'pnpm lint'.")).toEqual([{ op: 'contains', arg: 'pnpm lint' }]);
    expect(checksOf('always write “BREAKING CHANGE:” for those')).toEqual([
      { op: 'contains', arg: 'BREAKING CHANGE:' },
    ]);
  });

  it('checks for a flag or path when nothing is quoted', () => {
    expect(checksOf('always pass --frozen-lockfile.')).toEqual([
      { op: 'contains', arg: '--frozen-lockfile' },
    ]);
    expect(checksOf('Always update CHANGELOG.md')).toEqual([{ op: 'contains', arg: 'CHANGELOG.md' }]);
  });

  it('takes the earliest literal', () => {
    expect(checksOf('always update docs/api.md, then run "pnpm docs"')).toEqual([
      { op: 'contains', arg: 'docs/api.md' },
    ]);
  });

  it('reads "remember to" and "don\'t forget" as always', () => {
    expect(checksOf("don't forget to update CHANGELOG.md")).toEqual([
      { op: 'contains', arg: 'CHANGELOG.md' },
    ]);
    expect(checksOf('never forget the "Refs: #" footer')).toEqual([{ op: 'contains', arg: 'Refs: #' }]);
    expect(checksOf('please remember to pass --frozen-lockfile')).toEqual([
      { op: 'contains', arg: '--frozen-lockfile' },
    ]);
  });

  it('returns a vague "always" as unparsed', () => {
    expect(correctionsToChecks('Always be more careful with tests.')).toEqual({
      checks: [],
      evidence: [],
      corrections: [],
      unparsed: ['Always be more careful with tests.'],
    });
  });

  it('does not read an apostrophe as a quote', () => {
    expect(checksOf("always check it's green, then tag 'release'")).toEqual([
      { op: 'contains', arg: 'release' },
    ]);
  });
});

describe('correctionsToChecks: never', () => {
  const notDist = negativeWordCheck('dist/');

  it.each([
    'never edit `dist/`',
    'Never touch dist/.',
    "don't ever edit files in `dist/`",
    'Do not modify dist/, it is generated',
    "no, don't edit dist/",
    'you should never edit "dist/"',
    'never edit `dist/`, it is generated by `pnpm build`',
  ])('%j → the negative dist/ check', (text) => {
    expect(checksOf(text)).toEqual([notDist]);
  });

  it('handles quoted commands and flags', () => {
    expect(checksOf('never run `git push --force`')).toEqual([negativeWordCheck('git push --force')]);
    expect(checksOf('never pass --no-verify')).toEqual([negativeWordCheck('--no-verify')]);
  });

  it('accepts a curly apostrophe', () => {
    expect(checksOf('don’t edit `dist/`')).toEqual([notDist]);
    expect(checksOf('don’t use npm, use pnpm')).toEqual([{ op: 'contains', arg: 'pnpm' }, NOT_NPM]);
  });

  it('makes no rule of "don\'t worry about X"', () => {
    expect(checksOf("ok, don't worry about `README.md`")).toEqual([]);
  });

  it('makes nothing of a vague "never" or a mid-sentence one', () => {
    expect(correctionsToChecks('never do that again')).toEqual({
      checks: [],
      evidence: [],
      corrections: [],
      unparsed: [],
    });
    expect(checksOf('I have never seen `dist/` this big')).toEqual([]);
    expect(checksOf('I do not know why `src/a.ts` fails')).toEqual([]);
  });
});

describe('correctionsToChecks: several corrections', () => {
  it('collects every sentence and deduplicates the checks', () => {
    const result = correctionsToChecks(
      'use pnpm instead of npm. Also never edit `dist/`\nagain: use pnpm, not npm; always include "Refs: #"',
    );
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'contains', arg: 'Refs: #' },
    ]);
    expect(result.corrections).toEqual([
      'use pnpm instead of npm.',
      'Also never edit `dist/`',
      'again: use pnpm, not npm; always include "Refs: #"',
    ]);
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
    const result = correctionsToChecks(
      'Hmm, that failed. Use pnpm instead of npm! Also never edit `dist/`.\nkeep it under 300 chars',
    );
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'max_chars', arg: 299 },
    ]);
    expect(result.evidence).toEqual([
      'Use pnpm instead of npm!',
      'Use pnpm instead of npm!',
      'Also never edit `dist/`.',
      'keep it under 300 chars',
    ]);
  });

  it('keeps the sentence of the occurrence it kept', () => {
    const result = correctionsToChecks('never use `npm`. Use pnpm instead of npm.');
    expect(result.checks).toEqual([{ op: 'contains', arg: 'pnpm' }, NOT_NPM]);
    expect(result.evidence).toEqual(['Use pnpm instead of npm.', 'Use pnpm instead of npm.']);
  });
});

describe('correctionsToChecks: order for the mock optimizer', () => {
  it('never leaves a lone contains directly before an unrelated negative check', () => {
    const result = correctionsToChecks('always include "Refs: #"; never edit `dist/`. prefer pnpm over npm');
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('dist/'),
      { op: 'contains', arg: 'Refs: #' },
    ]);
  });

  it('breaks a pair whose half is already taken, keeping the other half', () => {
    expect(checksOf('use pnpm instead of npm. prefer pnpm over yarn')).toEqual([
      { op: 'contains', arg: 'pnpm' },
      NOT_NPM,
      negativeWordCheck('yarn'),
    ]);
  });

  it('arrangeChecks reorders a concatenation of several results', () => {
    const a = correctionsToChecks('always update CHANGELOG.md');
    const b = correctionsToChecks('never edit `dist/`');
    const joined = arrangeChecks([...a.checks, ...b.checks], [...a.evidence, ...b.evidence]);
    expect(joined).toEqual({
      checks: [negativeWordCheck('dist/'), { op: 'contains', arg: 'CHANGELOG.md' }],
      evidence: ['never edit `dist/`', 'always update CHANGELOG.md'],
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
    const result = correctionsToChecks(
      'use pnpm instead of npm. never edit `dist/`. always include "Refs: #". keep it under 10 chars',
    );
    const kept = filterUsefulChecks(result.checks, result.evidence, 'npm install zod\nRefs: #4');
    expect(kept).toEqual({
      checks: [{ op: 'contains', arg: 'pnpm' }, NOT_NPM, { op: 'max_chars', arg: 9 }],
      evidence: ['use pnpm instead of npm.', 'use pnpm instead of npm.', 'keep it under 10 chars'],
    });
  });

  it('moves the surviving contains of a pair away from an unrelated negative check', () => {
    const result = correctionsToChecks(
      'use pnpm instead of npm; always update CHANGELOG.md. never edit `dist/`',
    );
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
        'use pnpm instead of npm; always update CHANGELOG.md.',
        'use pnpm instead of npm; always update CHANGELOG.md.',
      ],
    });
  });

  it('drops both sides of a self-contradictory correction', () => {
    const result = correctionsToChecks('use `npm ci` instead of npm');
    expect(result.checks).toEqual([{ op: 'contains', arg: 'npm ci' }, NOT_NPM]);
    expect(filterUsefulChecks(result.checks, result.evidence, 'yarn install')).toEqual({
      checks: [],
      evidence: [],
    });
  });

  it('judges contradictions within a sentence, not across sentences', () => {
    const checks = [{ op: 'contains', arg: 'npm ci' }, NOT_NPM];
    expect(filterUsefulChecks(checks, ['a', 'b'], 'yarn; then npm i').checks).toEqual([NOT_NPM, checks[0]]);
  });
});
