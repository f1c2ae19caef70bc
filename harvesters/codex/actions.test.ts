import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { here, onlySession, useTmpDir, writeLines } from '../../test/helpers/codex-harvest.js';
import { MAX_ACTIONS_PER_TURN } from '../shared/actions.js';
import { act } from '../shared/test-helpers.js';

const FIXTURES = path.join(here, '..', 'fixtures', 'actions', 'codex');
const ITEMS_FILE = path.join(
  FIXTURES,
  'rollout-2026-05-04T10-00-00-019b1111-0000-7000-8000-00000000a001.jsonl',
);
const EVENTS_FILE = path.join(
  FIXTURES,
  'rollout-2026-05-04T11-00-00-019b1111-0000-7000-8000-00000000a002.jsonl',
);

const tmp = useTmpDir();

describe('codex actions', () => {
  it('reads commands, reads and patches (one action per file) from response items', async () => {
    const s = await onlySession(ITEMS_FILE);
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('run', 'shell_command', 'pnpm --filter api test -- order'),
          act('run', 'exec_command', "sed -n '1,80p' src/order.ts"),
          act('run', 'shell', 'rg -n discount src'),
          act('read', 'read_file', '/tmp/shop/src/order.ts'),
          act('edit', 'apply_patch', 'src/order.ts', '  discount: number;'),
          act(
            'write',
            'apply_patch',
            'src/discount.ts',
            'export const NO_DISCOUNT = 0;\nexport const MAX_DISCOUNT = 50;',
          ),
          act(
            'edit',
            'apply_patch',
            'src/order.test.ts',
            '  expect(total(order)).toBe(8);',
            '  expect(total(order)).toBe(10);',
          ),
          act('delete', 'apply_patch', 'src/legacy-discount.ts'),
          act('other', 'update_plan'),
          act('other', 'mcp__tracker__create_issue'),
          act('run', 'local_shell', 'git status --short'),
          // A patch piped into apply_patch through the shell is that patch, not the heredoc.
          act('edit', 'shell', 'README.md', 'Orders have a total and a discount.', 'Orders have a total.'),
        ],
      ],
      ['assistant', []],
    ]);
  });

  it('reads exec_command_end and patch_apply_end events when the file has no tool items', async () => {
    const s = await onlySession(EVENTS_FILE);
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('run', 'exec_command', 'ls src'),
          act('write', 'apply_patch', '/tmp/shop/src/discounts.ts', 'export const NO_DISCOUNT = 0;\n'),
          act('delete', 'apply_patch', '/tmp/shop/src/discount.ts'),
          act(
            'edit',
            'apply_patch',
            '/tmp/shop/src/order.ts',
            "import { NO_DISCOUNT } from './discounts';",
            "import { NO_DISCOUNT } from './discount';",
          ),
        ],
      ],
      ['assistant', []],
    ]);
  });

  it('takes the words of a command that is not a shell script, and caps a turn at 64 actions', async () => {
    const envelope = (type: string, payload: unknown) => ({
      timestamp: '2026-05-04T10:00:00.000Z',
      type,
      payload,
    });
    const calls = Array.from({ length: 70 }, (_, i) =>
      envelope('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['git', 'show', `HEAD~${i}`] }),
        call_id: `c${i}`,
      }),
    );
    const file = writeLines(`rollout-2026-05-04T10-00-00-019b1111-0000-7000-8000-00000000a003.jsonl`, [
      envelope('session_meta', { id: 'capped', cwd: '/tmp/shop' }),
      envelope('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'show history' }],
      }),
      ...calls,
    ]);
    expect(path.dirname(file)).toBe(tmp());
    const s = await onlySession(file);
    const actions = s.turns[1]?.actions ?? [];
    expect(actions).toHaveLength(MAX_ACTIONS_PER_TURN);
    expect(actions[0]).toEqual(act('run', 'shell', 'git show HEAD~0'));
    expect(actions.at(-1)).toEqual(act('run', 'shell', 'git show HEAD~63'));
  });
});
