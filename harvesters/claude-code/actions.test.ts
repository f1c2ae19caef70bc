import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS_PER_TURN, MAX_TARGET_CHARS, MAX_TEXT_CHARS } from '../shared/actions.js';
import { claude } from './claude-code.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';
import { act } from '../shared/test-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(
  here,
  '..',
  '..',
  'test',
  'fixtures',
  'actions',
  'claude',
  'projects',
  '-tmp-shop',
  '7c0a1e2f-3b4d-4e5f-8a9b-0c1d2e3f4a01.jsonl',
);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'claude-actions-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function onlySession(filePath: string): Promise<HarvestedSession> {
  const st = statSync(filePath);
  const file: SourceFile = {
    source: 'claude',
    path: filePath,
    size: st.size,
    mtimeMs: st.mtimeMs,
    inode: st.ino,
  };
  const { sessions } = await claude.parse(file, 0);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

describe('claude actions', () => {
  it('records what each tool call did, per assistant message, in call order', async () => {
    const s = await onlySession(FIXTURE);
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('run', 'Bash', 'pnpm --filter api test -- order'),
          act('read', 'Read', '/tmp/shop/src/order.ts'),
        ],
      ],
      [
        'assistant',
        [
          act(
            'edit',
            'Edit',
            '/tmp/shop/src/order.ts',
            '  total: number;\n  discount: number;\n}',
            '  total: number;\n}',
          ),
          act(
            'edit',
            'MultiEdit',
            '/tmp/shop/src/order.test.ts',
            'total: 10, discount: 0 }\ntotal: 20, discount: 5 }',
            'total: 10 }\ntotal: 20 }',
          ),
          act('write', 'Write', '/tmp/shop/src/discount.ts', 'export const NO_DISCOUNT = 0;\n'),
          act('search', 'Grep', 'discount'),
          act('other', 'mcp__tracker__create_issue'),
          act('other', 'BashOutput'),
          act('edit', 'NotebookEdit', '/tmp/shop/notes.ipynb', 'orders.discount.mean()'),
          act('search', 'Glob', 'src/**/*.test.ts'),
        ],
      ],
      ['assistant', []],
    ]);
    // The inline sub-agent's Bash call counts as a tool of the session only.
    expect(s.toolsUsed).toContain('Bash');
  });

  it('caps actions per turn and their texts, and strips control characters', async () => {
    const longCommand = `echo ${'x'.repeat(1000)}`;
    const blocks = Array.from({ length: 70 }, (_, i) => ({
      type: 'tool_use',
      id: `toolu_${i}`,
      name: i === 0 ? 'Write' : i === 1 ? 'Bash' : 'Read',
      input:
        i === 0
          ? {
              file_path: '/tmp/a\u0007.txt',
              content: `line one\r\n\u001b[31mred\u001b[0m\n${'y'.repeat(5000)}`,
            }
          : i === 1
            ? { command: longCommand }
            : { file_path: `/tmp/f${i}.ts` },
    }));
    const records = [
      { type: 'user', sessionId: 's1', uuid: 'u1', message: { role: 'user', content: 'go' } },
      ...blocks.map((block, i) => ({
        type: 'assistant',
        sessionId: 's1',
        uuid: `a${i}`,
        message: { id: 'msg_cap', role: 'assistant', model: 'claude-x', content: [block] },
      })),
    ];
    const file = path.join(tmp, 's1.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const s = await onlySession(file);
    const actions = s.turns[1]?.actions ?? [];
    expect(s.turns[1]?.toolNames).toHaveLength(70);
    expect(actions).toHaveLength(MAX_ACTIONS_PER_TURN);
    expect(actions.at(-1)).toEqual(act('read', 'Read', '/tmp/f63.ts'));
    const [write, run] = actions;
    expect(write?.target).toBe('/tmp/a.txt');
    expect(write?.added.startsWith('line one\n[31mred[0m\nyyy')).toBe(true);
    expect(write?.added).toHaveLength(MAX_TEXT_CHARS);
    // One word longer than the back-off window: a hard cut at the cap.
    expect(run?.target).toBe(longCommand.slice(0, MAX_TARGET_CHARS));
  });
});
