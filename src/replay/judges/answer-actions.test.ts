import { describe, expect, it } from 'vitest';
import type { Check } from '../../core/task.js';
import { answerActions, pathMatches } from './answer-actions.js';
import { evaluateCheck, ruleJudge } from './rule-checks.js';

const passes = (check: Check, answer: string): boolean => evaluateCheck(check, answer, []).pass;

const ANSWER = [
  'I changed the type in src/types.ts; dist/ is build output, so I left it alone.',
  '$ pnpm --filter @shop/shared build && \\',
  '  pnpm typecheck',
  '--- packages/shared/src/types.ts',
  'export interface Profile {',
  '  discountCents?: number;',
  '}',
  'rm packages/shared/old.ts',
  '$ npx vitest run src/money.test.ts',
].join('\n');

describe('the actions of a rendered answer', () => {
  it('reads commands (with continued lines), writes with their text, and deletions; prose is not an action', () => {
    expect(answerActions(ANSWER)).toEqual([
      {
        kind: 'run',
        target: 'pnpm --filter @shop/shared build && pnpm typecheck',
        text: '',
        start: 1,
        end: 3,
      },
      {
        kind: 'write',
        target: 'packages/shared/src/types.ts',
        text: 'export interface Profile {\n  discountCents?: number;\n}',
        start: 3,
        end: 7,
      },
      { kind: 'delete', target: 'packages/shared/old.ts', text: '', start: 7, end: 8 },
      { kind: 'run', target: 'npx vitest run src/money.test.ts', text: '', start: 8, end: 9 },
    ]);
  });

  it('reads no deletion from a flagged rm, and no action from a bare rule line or indented text', () => {
    expect(answerActions('rm -rf dist\n---\n  $ npm install\nplain prose')).toEqual([]);
  });

  it('matches a path, its end, a folder anywhere on it, or a file name', () => {
    const file = '/home/dev/web/packages/shared/dist/index.d.ts';
    expect(pathMatches(file, 'packages/shared/dist/index.d.ts')).toBe(true);
    expect(pathMatches(file, 'dist/')).toBe(true);
    expect(pathMatches(file, 'dist')).toBe(true);
    expect(pathMatches(file, './packages/shared/')).toBe(true);
    expect(pathMatches(file, 'index.d.ts')).toBe(true);
    expect(pathMatches(file, 'index.d')).toBe(false);
    expect(pathMatches('/p/src/dist.ts', 'dist/')).toBe(false);
    expect(pathMatches('/p/src/dist.ts', 'dist')).toBe(false);
    expect(pathMatches('C:\\p\\Dist\\x.js', 'dist/')).toBe(true);
  });
});

describe('action checks', () => {
  it('judge what the answer does: saying not to edit a path is not editing it', () => {
    const said = "Don't edit `packages/shared/dist/index.d.ts`, it's build output.";
    expect(passes({ op: 'not_edits', arg: 'packages/shared/dist/index.d.ts' }, said)).toBe(true);
    expect(passes({ op: 'not_mentions', arg: 'packages/shared/dist/index.d.ts' }, said)).toBe(false);
    const edited = `${said}\n--- /home/dev/web/packages/shared/dist/index.d.ts\nexport {};`;
    expect(passes({ op: 'not_edits', arg: 'packages/shared/dist/index.d.ts' }, edited)).toBe(false);
    expect(passes({ op: 'not_edits', arg: 'dist/' }, edited)).toBe(false);
    expect(passes({ op: 'edits', arg: 'dist/' }, edited)).toBe(true);
    expect(passes({ op: 'not_edits', arg: 'dist/' }, 'rm dist/index.js')).toBe(false);
  });

  it('runs / not_runs: a command holds the term as a whole word, prose does not count', () => {
    expect(passes({ op: 'runs', arg: 'pnpm' }, '$ pnpm add zod')).toBe(true);
    expect(passes({ op: 'runs', arg: 'pnpm' }, 'Use pnpm here.\n$ npm install zod')).toBe(false);
    expect(passes({ op: 'not_runs', arg: 'npm' }, '$ pnpm add zod')).toBe(true);
    expect(passes({ op: 'not_runs', arg: 'npm' }, 'We never use npm.\n$ pnpm add zod')).toBe(true);
    expect(passes({ op: 'not_runs', arg: 'npm' }, '$ npm install zod')).toBe(false);
    expect(passes({ op: 'runs', arg: 'vitest --run' }, '$ npx   vitest --run a.test.ts')).toBe(true);
  });

  it('writes / not_writes: the text put into files, not the path nor the prose', () => {
    const answer = 'No print() here.\n--- etl/print_report.py\nimport logging\nlogging.info("x")';
    expect(passes({ op: 'writes', arg: 'logging' }, answer)).toBe(true);
    expect(passes({ op: 'not_writes', arg: 'print' }, answer)).toBe(true);
    expect(passes({ op: 'not_writes', arg: 'logging' }, answer)).toBe(false);
    expect(passes({ op: 'writes', arg: 'print' }, answer)).toBe(false);
  });

  it('an answer that does nothing keeps every "not_" rule and meets no positive one', () => {
    const prose = 'I would rather ask first: which package manager does the repo use?';
    for (const op of ['not_runs', 'not_edits', 'not_writes'])
      expect(passes({ op, arg: 'npm' }, prose), op).toBe(true);
    for (const op of ['runs', 'edits', 'writes']) expect(passes({ op, arg: 'npm' }, prose), op).toBe(false);
  });

  it('any_of: the positive passes on any form, the negative fails on any form', () => {
    const runsTests: Check = { op: 'runs', arg: 'vitest --run', any_of: ['vitest run'] };
    expect(passes(runsTests, '$ npx vitest run')).toBe(true);
    expect(passes(runsTests, '$ npx vitest --run src/a.test.ts')).toBe(true);
    expect(passes(runsTests, '$ npx vitest src/a.test.ts')).toBe(false);
    const noWatch: Check = { op: 'not_runs', arg: 'vitest --watch', any_of: ['vitest watch'] };
    expect(passes(noWatch, '$ npx vitest watch')).toBe(false);
    expect(passes(noWatch, '$ npx vitest run')).toBe(true);
    const lockfile: Check = { op: 'contains', arg: 'pnpm-lock.yaml', any_of: ['pnpm lockfile'] };
    expect(passes(lockfile, 'updated the pnpm lockfile')).toBe(true);
    expect(passes({ ...lockfile, op: 'not_contains' }, 'updated the pnpm lockfile')).toBe(false);
    expect(passes({ op: 'mentions', arg: 'yarn', any_of: ['pnpm'] }, 'pnpm add x')).toBe(true);
    expect(passes({ op: 'not_mentions', arg: 'yarn', any_of: ['npm'] }, 'pnpm add x')).toBe(true);
  });

  it('names every form of a failed check', () => {
    const score = ruleJudge([{ op: 'runs', arg: 'vitest --run', any_of: ['vitest run'] }], '$ vitest', []);
    expect(score.rationale).toBe('failed: runs=vitest --run | vitest run');
  });

  it('a blank term is a malformed check, not a vacuous pass', () => {
    expect(evaluateCheck({ op: 'not_edits', arg: ' ' }, 'anything', [])).toEqual({
      pass: false,
      problem: 'missing arg',
    });
  });
});
