import { describe, expect, it } from 'vitest';
import { answerActions } from '../replay/judges/answer-actions.js';
import { evaluateCheck } from '../replay/judges/rule-checks.js';
import { renderAnswer, requestWork, type Episode } from './episodes.js';
import { edit, read, run, write } from './test-helpers.js';

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

describe('the work done for a request', () => {
  const episode = (prompt: string, actions: Episode['actions'] = []): Episode => ({
    turnIndex: 0,
    prompt,
    text: 'reply',
    actions,
  });

  it('is the reply to the request when that reply worked', () => {
    const episodes = [
      episode('summarise the march sales in a table', [run('python3 report.py')]),
      episode('ok', [write('/p/sales.md', '|')]),
    ];
    expect(requestWork(episodes, 0)).toEqual({ actions: [run('python3 report.py')], after: 1 });
  });

  it('goes on through short go-aheads, in any script, when the reply only proposed a plan', () => {
    const plan = episode('собери отчёт по продажам за март в таблицу', [read('/p/sales.sql')]);
    for (const goAhead of ['да, давай', '好的', 'ok go']) {
      const episodes = [plan, episode(goAhead, [run('python3 -c "report"')]), episode('thanks', [run('ls')])];
      expect(requestWork(episodes, 0)).toEqual({
        actions: [read('/p/sales.sql'), run('python3 -c "report"')],
        after: 2,
      });
    }
  });

  it('stops at a follow-up that asks for something else', () => {
    const episodes = [
      episode('what does the deploy script do?', []),
      episode('make the nightly job run every hour instead', [edit('/p/cron.yaml', 'daily', 'hourly')]),
    ];
    expect(requestWork(episodes, 0)).toEqual({ actions: [], after: 1 });
  });
});
