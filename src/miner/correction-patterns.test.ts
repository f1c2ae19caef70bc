import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { negativeWordCheck } from '../core/negative-check.js';
import type { Check } from '../core/task.js';
import { evaluateCheck } from '../replay/judges/rule-checks.js';
import {
  BUILTIN_PATTERNS,
  compileUserPatterns,
  type UserPatternSpec,
  wordLimitCheck,
  wordLimitOf,
} from './correction-patterns.js';
import { correctionsToChecks } from './corrections.js';

const checksOf = (text: string): Check[] => correctionsToChecks(text).checks;
const passes = (check: Check, answer: string): boolean => evaluateCheck(check, answer, []).pass;
const not = negativeWordCheck;

/** [correction, checks, an answer it corrects (fails every check), a correct answer (passes all)]. */
type Case = [string, Check[], string, string];

function expectCases(cases: readonly Case[]): void {
  it.each(cases)('%j', (text, checks, wrong, right) => {
    expect(checksOf(text)).toEqual(checks);
    for (const check of checks) {
      expect(passes(check, wrong), `${check.op} ${String(check.arg)} on the corrected answer`).toBe(false);
      expect(passes(check, right), `${check.op} ${String(check.arg)} on a correct answer`).toBe(true);
    }
  });
}

describe('the pattern table', () => {
  it('has unique names, generic patterns last', () => {
    const names = BUILTIN_PATTERNS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    const firstGeneric = BUILTIN_PATTERNS.findIndex((p) => p.generic === true);
    expect(BUILTIN_PATTERNS.slice(firstGeneric).every((p) => p.generic === true)).toBe(true);
  });
});

describe('must / required (like always)', () => {
  expectCases([
    [
      'you must update CHANGELOG.md',
      [{ op: 'contains', arg: 'CHANGELOG.md' }],
      'Edited src/a.ts',
      'Updated CHANGELOG.md',
    ],
    [
      'You must include "Refs: #" in the footer',
      [{ op: 'contains', arg: 'Refs: #' }],
      'fix: x',
      'fix: x\n\nRefs: #12',
    ],
    [
      'must pass --frozen-lockfile',
      [{ op: 'contains', arg: '--frozen-lockfile' }],
      'pnpm i',
      'pnpm i --frozen-lockfile',
    ],
    [
      'A CHANGELOG.md entry is required.',
      [{ op: 'contains', arg: 'CHANGELOG.md' }],
      'done',
      'Added a CHANGELOG.md entry',
    ],
    [
      'after `pnpm build`, `Refs: #` is required',
      [{ op: 'contains', arg: 'Refs: #' }],
      'fix: y',
      'fix: y Refs: #3',
    ],
    ['`--dry-run` is mandatory', [{ op: 'contains', arg: '--dry-run' }], 'deploy', 'deploy --dry-run'],
  ]);

  it.each([
    'you must be kidding',
    'you must have missed `src/a.ts`',
    'it must be `dist/` that is stale',
    'no `x` is required',
    '`dist/` is required by the publish step',
    'a review is required',
  ])('makes no check from %j', (text) => {
    expect(checksOf(text)).toEqual([]);
  });

  it('reports a "must" without a literal as unparsed', () => {
    expect(correctionsToChecks('you must run the tests first').unparsed).toEqual([
      'you must run the tests first',
    ]);
  });

  it('reads "must not" as a never', () => {
    expect(checksOf('you must not edit `dist/`')).toEqual([not('dist/')]);
    expect(checksOf("you mustn't pass --no-verify")).toEqual([not('--no-verify')]);
  });
});

describe('file and folder prohibitions', () => {
  expectCases([
    ["don't touch `src/legacy/`", [not('src/legacy/')], 'Edited src/legacy/a.ts', 'Edited src/a.ts'],
    [
      "don't touch package.json or pnpm-lock.yaml",
      [not('package.json'), not('pnpm-lock.yaml')],
      'Updated package.json and pnpm-lock.yaml',
      'Edited src/index.ts',
    ],
    [
      "don't modify the migrations folder",
      [not('migrations/')],
      'Changed migrations/001.sql',
      'Changed src/db.ts',
    ],
    ["you shouldn't change `.env`", [not('.env')], 'Set X in .env', 'Set X in config.ts'],
    ['leave `vendor/` alone', [not('vendor/')], 'Patched vendor/lib.js', 'Patched src/lib.js'],
    [
      'please leave package.json and tsconfig.json as is',
      [not('package.json'), not('tsconfig.json')],
      'Edited package.json, tsconfig.json',
      'Edited src/a.ts',
    ],
    ['stay out of `infra/`', [not('infra/')], 'Edited infra/main.tf', 'Edited app/main.ts'],
    [
      'keep out of the generated directory',
      [not('generated/')],
      'Regenerated generated/api.ts',
      'Edited api.ts',
    ],
    ['hands off `db/schema.sql`', [not('db/schema.sql')], 'Edited db/schema.sql', 'Added a migration'],
    ['no changes to `package.json`', [not('package.json')], 'Bumped package.json', 'Edited src/a.ts'],
    ['make no edits in dist/', [not('dist/')], 'Edited dist/a.js', 'Edited src/a.ts'],
    ['`dist/` is off-limits', [not('dist/')], 'Edited dist/a.js', 'Edited src/a.ts'],
    ['CHANGELOG.md is read-only', [not('CHANGELOG.md')], 'Edited CHANGELOG.md', 'Edited README.md'],
    [
      'never edit `dist/` and never run `git push --force`',
      [not('dist/'), not('git push --force')],
      'Edited dist/a.js, then git push --force',
      'Edited src/a.ts, then git push',
    ],
  ]);

  it('does not count a longer name as the path', () => {
    const [check] = checksOf('leave `dist/` alone');
    expect(check && passes(check, 'Edited predist/a.js')).toBe(true);
  });

  it.each([
    "don't touch anything else",
    'leave it alone',
    "don't change the behaviour",
    'there are no changes to `package.json` in this diff',
    'I never touch `dist/` myself',
    'keep `--force` as is',
  ])('makes no check from %j', (text) => {
    expect(checksOf(text)).toEqual([]);
  });

  it('reads "don\'t remove/skip X" as keeping X, except a path after remove/delete', () => {
    expect(checksOf("don't remove the `--frozen-lockfile` flag")).toEqual([
      { op: 'contains', arg: '--frozen-lockfile' },
    ]);
    expect(checksOf("don't skip `pnpm lint`")).toEqual([{ op: 'contains', arg: 'pnpm lint' }]);
    expect(checksOf("don't delete `src/old.ts`")).toEqual([not('src/old.ts')]);
  });
});

describe('length limits', () => {
  const long = 'x'.repeat(600);
  expectCases([
    ['keep it under 500 chars', [{ op: 'max_chars', arg: 499 }], long, 'short'],
    ['Keep it under 500 characters.', [{ op: 'max_chars', arg: 499 }], 'y'.repeat(500), 'y'.repeat(499)],
    ['max 500 chars', [{ op: 'max_chars', arg: 500 }], long, 'y'.repeat(500)],
    ['shorter than 300 characters', [{ op: 'max_chars', arg: 299 }], long, 'ok'],
    ['Your answer must be under 1,000 characters.', [{ op: 'max_chars', arg: 999 }], 'z'.repeat(1000), 'ok'],
    ['keep it to 200 chars max', [{ op: 'max_chars', arg: 200 }], long, 'ok'],
    ['200 chars max', [{ op: 'max_chars', arg: 200 }], long, 'ok'],
    ['no more than 280 characters please', [{ op: 'max_chars', arg: 280 }], long, 'ok'],
    ['too long, keep it under 4 words please', [wordLimitCheck(3)], 'one two three four', ' one two\nthree '],
    ['at most 2 words', [wordLimitCheck(2)], 'a b c', 'a b'],
  ]);

  it('counts words exactly', () => {
    const check = wordLimitCheck(3);
    expect(wordLimitOf(check)).toBe(3);
    expect(wordLimitOf({ op: 'regex', arg: '^x$' })).toBeNull();
    expect(passes(check, '')).toBe(true);
    expect(passes(check, 'supercalifragilistic expialidocious words')).toBe(true);
    expect(passes(check, 'a b c d')).toBe(false);
  });

  it('keeps the rest of the sentence', () => {
    expect(checksOf('keep it under 200 characters, and use pnpm instead of npm')).toEqual([
      { op: 'contains', arg: 'pnpm' },
      not('npm'),
      { op: 'max_chars', arg: 199 },
    ]);
  });

  it.each([
    'keep it short',
    'keep the commit subject under 50 chars',
    'keep it under 50 chars for the subject line',
    'the title must be under 60 characters',
    'it took under 5 minutes',
    'I wrote 500 characters',
    'keep it under 1 word',
  ])('makes no check from %j', (text) => {
    expect(checksOf(text)).toEqual([]);
  });
});

describe('sections', () => {
  expectCases([
    [
      'add a `## Testing` section',
      [{ op: 'section_present', arg: 'Testing' }],
      'Done.',
      '## Testing\nran it',
    ],
    [
      'include a Testing section',
      [{ op: 'section_present', arg: 'Testing' }],
      'Tested it.',
      '### Testing\n- ok',
    ],
    ['always add a `## Testing` section', [{ op: 'section_present', arg: 'Testing' }], 'x', '## Testing'],
    [
      'add a separate Test Plan section',
      [{ op: 'section_present', arg: 'Test Plan' }],
      'plan: none',
      '## Test Plan',
    ],
    ['add a section called "Risks"', [{ op: 'section_present', arg: 'Risks' }], 'no risks', 'Risks: none'],
    [
      'you forgot the ## Rollback heading',
      [{ op: 'section_present', arg: 'Rollback' }],
      'x',
      '## Rollback\nrevert',
    ],
  ]);

  it.each([
    "don't add a Testing section",
    'there is no need to add a Testing section',
    'add a new section',
    'add tests to the Testing section',
    'I added a Testing section',
  ])('makes no check from %j', (text) => {
    expect(checksOf(text)).toEqual([]);
  });
});

describe('what to say and not to say', () => {
  expectCases([
    ["don't mention Jest", [not('Jest')], 'Uses Jest', 'Uses Vitest'],
    ["don't say 'I think'", [not('I think')], 'I think it works', 'It works'],
    ['stop saying sorry', [not('sorry')], 'Sorry, fixed', 'Fixed'],
    ['avoid using the word "simply"', [not('simply')], 'Simply run it', 'Run it'],
    [
      'say "Done." at the end of the answer',
      [{ op: 'contains', arg: 'Done.' }],
      'Finished',
      'Finished. Done.',
    ],
    [
      'mention `pnpm-lock.yaml` in the answer',
      [{ op: 'contains', arg: 'pnpm-lock.yaml' }],
      'ok',
      'pnpm-lock.yaml updated',
    ],
    [
      'please mention "BREAKING CHANGE"',
      [{ op: 'contains', arg: 'BREAKING CHANGE' }],
      'feat: x',
      'BREAKING CHANGE: x',
    ],
  ]);

  it.each([
    "never say you're done before the tests pass",
    "don't mention it",
    "don't mention the tests",
    "don't say anything",
    "I didn't mention `x`",
    'I wanted to say "thanks"',
    'say something',
    'also add `dayjs`',
    'don\'t mention "x" in the answer',
  ])('makes no contains check from %j', (text) => {
    expect(checksOf(text).filter((c) => c.op === 'contains')).toEqual([]);
  });

  it('reads "don\'t mention `x` in the answer" as a negative check', () => {
    expect(checksOf("don't mention `x` in the answer")).toEqual([not('x')]);
  });
});

describe('near misses', () => {
  it.each([
    "it's not working",
    "I don't know",
    "I don't know why it fails",
    'I do not know why `src/a.ts` fails',
    "ok, don't worry about `README.md`",
    'thanks, works now',
    'why is `dist/` so big?',
    'can you explain `src/a.ts`?',
  ])('%j gives no check', (text) => {
    expect(correctionsToChecks(text)).toMatchObject({ checks: [], evidence: [] });
  });
});

describe('compileUserPatterns', () => {
  const specs: UserPatternSpec[] = [
    {
      name: 'ticket',
      regex: String.raw`\bmention (?:the )?ticket (\S+)`,
      checks: [{ op: 'contains', arg: '$1' }],
    },
    {
      name: 'swap-runner',
      regex: String.raw`\brun tests with (\S+),? not (\S+)`,
      checks: [
        { op: 'contains', arg: '$1' },
        { op: 'not_contains', arg: '$2' },
      ],
    },
    { name: 'limit', regex: String.raw`\bcap (?:it )?at ([\d,]+)`, checks: [{ op: 'max_chars', arg: '$1' }] },
    {
      name: 'regex-arg',
      regex: String.raw`\bprefix lines with (\S+)`,
      checks: [{ op: 'regex', arg: '(?m)^$1' }],
    },
    { name: 'heading', regex: String.raw`\bneeds (#+ \w+)`, checks: [{ op: 'section_present', arg: '$1' }] },
    { name: 'polite', regex: String.raw`\bno refusals\b`, checks: [{ op: 'no_refusal' }] },
  ];
  const patterns = compileUserPatterns(specs);

  it('fills capture groups and runs after the built-ins', () => {
    const result = correctionsToChecks('Always update CHANGELOG.md. Mention the ticket `ABC-12`.', patterns);
    expect(result.checks).toEqual([
      { op: 'contains', arg: 'CHANGELOG.md' },
      { op: 'contains', arg: 'ABC-12' },
    ]);
    expect(result.evidence).toEqual(['Always update CHANGELOG.md.', 'Mention the ticket `ABC-12`.']);
  });

  it('writes not_contains as the word-bounded negative, next to its contains', () => {
    expect(correctionsToChecks('run tests with vitest, not jest', patterns).checks).toEqual([
      { op: 'contains', arg: 'vitest' },
      not('jest'),
    ]);
  });

  it('reads numbers, escapes regex text, strips heading marks, passes arg-less ops', () => {
    expect(correctionsToChecks('cap it at 1,200', patterns).checks).toEqual([{ op: 'max_chars', arg: 1200 }]);
    expect(correctionsToChecks('prefix lines with a.b', patterns).checks).toEqual([
      { op: 'regex', arg: String.raw`(?m)^a\.b` },
    ]);
    expect(correctionsToChecks('it needs ## Risks', patterns).checks).toEqual([
      { op: 'section_present', arg: 'Risks' },
    ]);
    expect(correctionsToChecks('no refusals', patterns).checks).toEqual([{ op: 'no_refusal' }]);
  });

  it('skips a check whose group is vague or did not capture', () => {
    const [optional] = compileUserPatterns([
      { name: 'opt', regex: String.raw`\bship(?: with (\S+))?`, checks: [{ op: 'contains', arg: '$1' }] },
    ]);
    expect(optional).toBeDefined();
    if (optional === undefined) return;
    expect(correctionsToChecks('ship it', [optional]).checks).toEqual([]);
    expect(correctionsToChecks('ship with it', [optional]).checks).toEqual([]);
    expect(correctionsToChecks('ship with turbo', [optional]).checks).toEqual([
      { op: 'contains', arg: 'turbo' },
    ]);
  });

  it('accepts $$ for a dollar sign and $0 for the whole match', () => {
    const [dollar] = compileUserPatterns([
      { name: 'usd', regex: String.raw`\bprices in USD\b`, checks: [{ op: 'contains', arg: '$$' }] },
    ]);
    expect(dollar && correctionsToChecks('show prices in USD', [dollar]).checks).toEqual([
      { op: 'contains', arg: '$' },
    ]);
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    [
      'an invalid regex',
      { name: 'bad', regex: '(unclosed', checks: [{ op: 'contains', arg: 'x' }] },
      /correction pattern "bad": regex does not compile/,
    ],
    [
      'an unknown op',
      { name: 'typo', regex: 'foo', checks: [{ op: 'contians', arg: 'x' }] },
      /correction pattern "typo": check #0 has unknown op "contians" \(known: .*contains/,
    ],
    [
      'a missing group',
      { name: 'g', regex: '(a)b', checks: [{ op: 'contains', arg: '$2' }] },
      /"g": check #0 uses \$2 but the regex has 1 capture group$/,
    ],
    [
      'a bad char bound',
      { name: 'n', regex: 'short', checks: [{ op: 'max_chars', arg: 'lots' }] },
      /"n": check #0 max_chars needs an integer arg/,
    ],
    [
      'a missing arg',
      { name: 'm', regex: 'x+', checks: [{ op: 'contains' }] },
      /"m": check #0 contains needs a non-empty arg/,
    ],
    [
      'an invalid regex arg',
      { name: 'r', regex: 'x+', checks: [{ op: 'regex', arg: '([' }] },
      /"r": check #0 regex does not compile/,
    ],
    [
      'an empty-matching regex',
      { name: 'e', regex: 'x*', checks: [{ op: 'contains', arg: 'x' }] },
      /"e": regex "x\*" matches the empty string/,
    ],
    ['no checks', { name: 'c', regex: 'x', checks: [] }, /"c" needs a non-empty "checks" array/],
    [
      'no name',
      { name: ' ', regex: 'x', checks: [{ op: 'no_refusal' }] },
      /correction pattern #0 needs a non-empty "name"/,
    ],
    [
      'a non-string regex',
      { name: 's', regex: 5, checks: [{ op: 'no_refusal' }] },
      /"s" needs a non-empty "regex" string/,
    ],
  ];

  it.each(invalid)('refuses %s with an InputError naming the pattern', (_, spec, message) => {
    const run = (): unknown => compileUserPatterns([spec as UserPatternSpec]);
    expect(run).toThrow(InputError);
    expect(run).toThrow(message);
  });

  it('refuses duplicate names', () => {
    const spec: UserPatternSpec = { name: 'dup', regex: 'x', checks: [{ op: 'no_refusal' }] };
    expect(() => compileUserPatterns([spec, spec])).toThrow(/"dup" is defined twice/);
  });
});
