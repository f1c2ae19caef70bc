import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../../core/negative-check.js';
import type { Check } from '../../core/task.js';
import type { Episode } from '../episodes.js';
import { edit, run } from '../test-helpers.js';
import { correctionAnswers, keepSeparating, separationProblem } from './verdict.js';

const ep = (prompt: string, actions: Episode['actions'] = [], text = ''): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});

// The user rejected an edit of dist/; the accepted answer undoes it and says so in prose.
const DIST = [
  ep('fix the type error', [edit('/p/dist/index.d.ts', 'a', 'b')], 'Edited dist/index.d.ts.'),
  ep(
    "don't edit dist/, it's build output",
    [run('git checkout -- /p/dist/index.d.ts'), edit('/p/src/types.ts', 'a', 'b')],
    "Reverted dist/index.d.ts: it's build output. The type is in src/types.ts now.",
  ),
];
const answers = correctionAnswers(DIST, 0, 1);

describe('whether a check separates the answers of its correction', () => {
  it('holds an action check to the same test as a text check', () => {
    if (answers === null) throw new Error('no answers');
    expect(separationProblem({ op: 'not_edits', arg: 'dist/' }, answers)).toBeNull();
    // Both answers write "b", into different files.
    expect(separationProblem({ op: 'not_writes', arg: 'b' }, answers)).toBe('accepted answer fails it');
  });

  it('drops the checks that do not separate, saying why', () => {
    if (answers === null) throw new Error('no answers');
    const checks: Check[] = [
      { op: 'not_edits', arg: 'dist/' },
      { op: 'not_runs', arg: 'git' },
      { op: 'runs', arg: 'pnpm' },
      { op: 'edits', arg: 'dist/' },
    ];
    expect(keepSeparating(checks, answers)).toEqual({
      kept: [{ op: 'not_edits', arg: 'dist/' }],
      dropped: [
        // The rejected answer ran nothing.
        { check: { op: 'not_runs', arg: 'git' }, why: 'rejected answer passes it' },
        { check: { op: 'runs', arg: 'pnpm' }, why: 'accepted answer fails it' },
        { check: { op: 'edits', arg: 'dist/' }, why: 'rejected answer passes it' },
      ],
    });
  });

  it('judges two rendered answers alone when the episodes are gone', () => {
    const pair = { rejected: '$ npm install zod', accepted: 'No npm here.\n$ pnpm add zod' };
    const checks: Check[] = [
      { op: 'not_runs', arg: 'npm' },
      negativeWordCheck('npm'),
      { op: 'runs', arg: 'pnpm', any_of: ['yarn'] },
    ];
    expect(keepSeparating(checks, pair)).toEqual({
      kept: [
        { op: 'not_runs', arg: 'npm' },
        { op: 'runs', arg: 'pnpm', any_of: ['yarn'] },
      ],
      dropped: [{ check: negativeWordCheck('npm'), why: 'accepted answer fails it' }],
    });
  });
});
