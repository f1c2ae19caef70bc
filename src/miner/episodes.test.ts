import { describe, expect, it } from 'vitest';
import { answerActions } from '../replay/judges/answer-actions.js';
import { evaluateCheck } from '../replay/judges/rule-checks.js';
import { renderAnswer } from './episodes.js';
import { edit, run, write } from './test-helpers.js';

describe('a recorded answer as rendered', () => {
  it('reads back as the actions it took, in order, whatever the prose says', () => {
    const rendered = renderAnswer({
      text: 'Reverted the change in dist/index.d.ts and made it in the source.\nrm -rf is not needed.',
      actions: [
        run('git checkout -- packages/shared/dist/index.d.ts'),
        edit('/p/packages/shared/src/types.ts', 'a', 'export type A = 1;\nexport type B = 2;'),
        write('/p/notes.md', ''),
        { kind: 'delete', tool: 'Bash', target: '/p/old.ts', added: '', removed: '' },
        run('pnpm --filter @shop/shared build'),
      ],
    });
    expect(answerActions(rendered).map(({ kind, target, text }) => ({ kind, target, text }))).toEqual([
      { kind: 'run', target: 'git checkout -- packages/shared/dist/index.d.ts', text: '' },
      {
        kind: 'write',
        target: '/p/packages/shared/src/types.ts',
        text: 'export type A = 1;\nexport type B = 2;',
      },
      { kind: 'write', target: '/p/notes.md', text: '' },
      { kind: 'delete', target: '/p/old.ts', text: '' },
      { kind: 'run', target: 'pnpm --filter @shop/shared build', text: '' },
    ]);
    const check = (op: string, arg: string): boolean => evaluateCheck({ op, arg }, rendered, []).pass;
    expect(check('not_edits', 'dist/')).toBe(true);
    expect(check('edits', 'old.ts')).toBe(true);
    expect(check('runs', 'pnpm')).toBe(true);
    expect(check('writes', 'type B')).toBe(true);
  });
});
