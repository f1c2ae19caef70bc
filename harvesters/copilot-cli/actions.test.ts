import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS_PER_TURN, MAX_TEXT_CHARS } from '../shared/actions.js';
import { copilotCli } from './copilot-cli.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';
import { act } from '../shared/test-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SESSION = 'c0ffee00-0000-4000-8000-0000000000a1';
const EVENTS = path.join(
  here,
  '..',
  '..',
  'test',
  'fixtures',
  'actions',
  'copilot-cli',
  '.copilot',
  'session-state',
  SESSION,
  'events.jsonl',
);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-cli-actions-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function onlySession(filePath: string): Promise<HarvestedSession> {
  const st = statSync(filePath);
  const file: SourceFile = {
    source: 'copilot-cli',
    path: filePath,
    size: st.size,
    mtimeMs: st.mtimeMs,
    inode: st.ino,
  };
  const { sessions } = await copilotCli.parse(file, 0);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

describe('copilot-cli actions', () => {
  it('records each tool call once, from its request or its execution, with what it did', async () => {
    const s = await onlySession(EVENTS);
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('other', 'report_intent'),
          act('run', 'bash', 'pnpm --filter api test'),
          act('read', 'view', '/tmp/shop/src/order.ts'),
          act(
            'edit',
            'edit',
            '/tmp/shop/src/order.ts',
            '  total: number;\n  discount: number;',
            '  total: number;',
          ),
          act('write', 'create', '/tmp/shop/src/discount.ts', 'export const NO_DISCOUNT = 0;\n'),
          act('search', 'grep', 'discount'),
          act('search', 'glob', 'src/**/*.test.ts'),
          act(
            'edit',
            'apply_patch',
            'src/order.test.ts',
            '  expect(total(order)).toBe(8);',
            '  expect(total(order)).toBe(10);',
          ),
          act('write', 'apply_patch', 'src/discount.test.ts', "import { NO_DISCOUNT } from './discount';"),
        ],
      ],
      [
        'assistant',
        [
          act('read', 'str_replace_editor', '/tmp/shop/README.md'),
          act(
            'edit',
            'str_replace_editor',
            '/tmp/shop/README.md',
            'Orders have a total and a discount.',
            'Orders have a total.',
          ),
          act('edit', 'str_replace_editor', '/tmp/shop/CHANGELOG.md', '- discounts'),
          act('write', 'str_replace_editor', '/tmp/shop/docs/discount.md', '# Discounts\n'),
        ],
      ],
      ['assistant', []],
    ]);
  });

  it('caps a turn at 64 actions and file text at 2000 characters, without control characters', async () => {
    const requests = Array.from({ length: 70 }, (_, i) => ({
      toolCallId: `c${i}`,
      name: 'create',
      arguments: JSON.stringify({ path: `/tmp/f${i}.txt`, file_text: `\u001b[1m${'z'.repeat(3000)}` }),
    }));
    const events = [
      { type: 'session.start', data: { sessionId: 'capped', context: { cwd: '/tmp' } }, id: 'e1' },
      { type: 'user.message', data: { content: 'make files' }, id: 'e2' },
      { type: 'assistant.message', data: { messageId: 'm', content: '', toolRequests: requests }, id: 'e3' },
    ];
    const dir = path.join(tmp, 'capped');
    mkdirSync(dir);
    const file = path.join(dir, 'events.jsonl');
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const actions = (await onlySession(file)).turns[1]?.actions ?? [];
    expect(actions).toHaveLength(MAX_ACTIONS_PER_TURN);
    expect(actions[0]?.added).toBe(`[1m${'z'.repeat(MAX_TEXT_CHARS - 3)}`);
    expect(actions.at(-1)?.target).toBe('/tmp/f63.txt');
  });
});
