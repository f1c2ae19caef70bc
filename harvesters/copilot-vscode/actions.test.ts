import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS_PER_TURN, MAX_TARGET_CHARS } from '../shared/actions.js';
import { copilot } from './copilot-vscode.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';
import { act } from '../shared/test-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKSPACE = path.join(
  here,
  '..',
  '..',
  'test',
  'fixtures',
  'actions',
  'copilot',
  'User',
  'workspaceStorage',
  '9f8e7d-shop',
);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-actions-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function onlySession(filePath: string): Promise<HarvestedSession> {
  const st = statSync(filePath);
  const file: SourceFile = {
    source: 'copilot',
    path: filePath,
    size: st.size,
    mtimeMs: st.mtimeMs,
    inode: st.ino,
  };
  const { sessions } = await copilot.parse(file, 0);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

describe('copilot (VS Code) actions', () => {
  it('reads commands, files and searches from what a chat session shows, edit texts from edit groups', async () => {
    const s = await onlySession(path.join(WORKSPACE, 'chatSessions', 'shop-0001.json'));
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('run', 'run_in_terminal', 'pnpm --filter api test'),
          act('read', 'copilot_readFile', '/tmp/shop/src/order.ts'),
          act(
            'edit',
            'copilot_replaceString',
            '/tmp/shop/src/order.ts',
            '  total: number;\n  discount: number;',
          ),
          act('write', 'copilot_createFile', '/tmp/shop/src/discount.ts', 'export const NO_DISCOUNT = 0;\n'),
          act('search', 'copilot_findTextInFiles', 'discount'),
          act('other', 'mcp_tracker_create_issue'),
        ],
      ],
    ]);
  });

  it('reads the arguments of the extension event stream', async () => {
    const s = await onlySession(
      path.join(WORKSPACE, 'GitHub.copilot-chat', 'transcripts', 'shop-0002.jsonl'),
    );
    expect(s.turns.map((t) => [t.role, t.actions])).toEqual([
      ['user', []],
      [
        'assistant',
        [
          act('run', 'run_in_terminal', 'pnpm --filter api test'),
          act('read', 'read_file', '/tmp/shop/src/order.ts'),
          act(
            'edit',
            'replace_string_in_file',
            '/tmp/shop/src/order.ts',
            '  total: number;\n  discount: number;',
            '  total: number;',
          ),
          act('write', 'create_file', '/tmp/shop/src/discount.ts', 'export const NO_DISCOUNT = 0;\n'),
          act('search', 'grep_search', 'discount'),
          act('other', 'mcp_tracker_create_issue'),
        ],
      ],
      ['assistant', []],
    ]);
  });

  it('gives edit groups to the matching edit, continues it, or records an unannounced edit; caps apply', async () => {
    const uri = (p: string) => ({ $mid: 1, fsPath: p, path: p, scheme: 'file' });
    const group = (p: string, text: string) => ({
      kind: 'textEditGroup',
      uri: uri(p),
      edits: [[{ text }]],
      done: true,
    });
    const invocation = (toolId: string, extra: Record<string, unknown> = {}) => ({
      kind: 'toolInvocationSerialized',
      toolId,
      invocationMessage: '',
      isConfirmed: { type: 1 },
      ...extra,
    });
    const response = [
      invocation('copilot_replaceString', {
        invocationMessage: { value: 'Editing [](file:///w/b.ts)', uris: {} },
      }),
      invocation('copilot_applyPatch'),
      group('/w/a.ts', 'for a'), // no edit names a.ts: the patch (no file yet) takes it
      group('/w/b.ts', 'for b\u0007\r\n'),
      group('/w/b.ts', 'more for b'), // the same file again: the same edit
      group('/w/c.ts', 'for c'), // nothing waits for it
      invocation('copilot_createFile', {
        toolSpecificData: { kind: 'input', rawInput: { filePath: '/w/d.ts', content: 'own text' } },
      }),
      group('/w/d.ts', 'own text'), // only applies the edit's own text
      invocation('run_in_terminal', {
        toolSpecificData: { kind: 'terminal', commandLine: `echo ${'x'.repeat(500)}` },
      }),
      ...Array.from({ length: 70 }, () => invocation('copilot_readFile')),
    ];
    const session = {
      version: 3,
      sessionId: 'groups',
      requests: [{ requestId: 'r1', timestamp: 1777538810000, message: { text: 'edit things' }, response }],
    };
    const dir = path.join(tmp, 'ws', 'chatSessions');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'groups.json');
    writeFileSync(file, JSON.stringify(session));
    const actions = (await onlySession(file)).turns[1]?.actions ?? [];
    expect(actions.slice(0, 5)).toEqual([
      act('edit', 'copilot_replaceString', '/w/b.ts', 'for b\n\nmore for b'),
      act('edit', 'copilot_applyPatch', '/w/a.ts', 'for a'),
      act('edit', 'textEditGroup', '/w/c.ts', 'for c'),
      act('write', 'copilot_createFile', '/w/d.ts', 'own text'),
      act('run', 'run_in_terminal', `echo ${'x'.repeat(MAX_TARGET_CHARS - 5)}`),
    ]);
    expect(actions).toHaveLength(MAX_ACTIONS_PER_TURN);
  });
});
