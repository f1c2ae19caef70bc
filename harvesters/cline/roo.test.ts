import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { roo } from './cline.js';
import type { HarvestedSession, HarvestedTurn, SourceFile } from '../../src/core/session.js';
import { act } from '../shared/test-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', '..', 'test', 'fixtures', 'roo', 'globalStorage');
const STORAGE = 'rooveterinaryinc.roo-cline';
const TASK = (n: number): string => `019afd5e-1a2b-7c3d-8e4f-00000000000${n}`;
/** The fixture times: 2025-12-09T10:00:00Z and an hour later. */
const T3 = Date.UTC(2025, 11, 9, 10);
const T4 = T3 + 3_600_000;

let tmp: string;
let storage: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roo-harvest-'));
  // Installed in Cursor: the extension runs in VS Code forks too.
  const globalStorage = path.join(tmp, '.config', 'Cursor', 'User', 'globalStorage');
  cpSync(FIXTURES, globalStorage, { recursive: true });
  storage = path.join(globalStorage, STORAGE);
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function taskFile(id: string): SourceFile {
  const file = path.join(storage, 'tasks', id, 'api_conversation_history.json');
  const st = statSync(file);
  return { source: 'roo', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

function turn(
  seq: number,
  role: HarvestedTurn['role'],
  text: string,
  ts: number | null,
  more: Partial<HarvestedTurn> = {},
): HarvestedTurn {
  const actions = more.actions ?? [];
  const toolNames = actions.map((a) => a.tool);
  return { seq, role, text, ts, toolNames, actions, toolErrors: 0, interrupted: false, offset: 0, ...more };
}

describe('roo discovery', () => {
  it('finds the task transcripts of the Cursor profile, nothing of Cline', async () => {
    const files = await roo.discover({ home: tmp, env: {} });
    expect(files.map((f) => path.relative(storage, f.path))).toEqual(
      [1, 2, 3].map((n) => `tasks/${TASK(n)}/api_conversation_history.json`),
    );
    expect(files.every((f) => f.source === 'roo')).toBe(true);
  });
});

describe('roo.parse', () => {
  it('reads a native-tools task with <user_message> prompts and the workspace of history_item.json', async () => {
    const file = taskFile(TASK(1));
    const expected: HarvestedSession = {
      source: 'roo',
      sessionId: TASK(1),
      cwd: '/home/dev/shop-main',
      branch: '',
      model: '',
      startedAt: T3,
      endedAt: T3 + 13_000,
      turns: [
        // search_replace was denied in the first exchange.
        turn(0, 'user', 'Rename getUser to fetchUser', T3, { interrupted: true }),
        turn(1, 'assistant', 'Searching first.', T3 + 2000, {
          actions: [
            act('search', 'codebase_search', 'where is getUser called'),
            act('search', 'search_files', 'getUser\\('),
            act('read', 'read_file', 'src/user.ts'),
          ],
        }),
        turn(2, 'assistant', '', T3 + 5000, {
          actions: [
            act(
              'edit',
              'apply_diff',
              'src/user.ts',
              'export function fetchUser() {}',
              'export function getUser() {}',
            ),
            act('edit', 'search_replace', 'src/api.ts', 'fetchUser()', 'getUser()'),
            act('other', 'ask_followup_question'),
          ],
        }),
        turn(3, 'user', 'Keep a deprecated alias', T3 + 9000),
        turn(4, 'assistant', 'Adding the alias.', T3 + 12_000, {
          actions: [
            act(
              'edit',
              'insert_content',
              'src/user.ts',
              '/** @deprecated */\nexport const getUser = fetchUser;',
            ),
            act('write', 'write_to_file', 'docs/rename.md', 'getUser is now fetchUser.\n'),
            act('run', 'execute_command', 'npm test'),
            act('other', 'attempt_completion'),
          ],
        }),
      ],
      toolsUsed: [
        'codebase_search',
        'search_files',
        'read_file',
        'apply_diff',
        'search_replace',
        'ask_followup_question',
        'insert_content',
        'write_to_file',
        'execute_command',
        'attempt_completion',
      ],
      skillsUsed: [],
      filesTouched: ['src/user.ts', 'src/api.ts', 'docs/rename.md'],
      sourcePath: file.path,
      sourceVersion: '',
    };
    expect(await roo.parse(file, 0)).toEqual({ sessions: [expected], badLines: 0, endOffset: file.size });
  });

  it('reads an XML-protocol task: times from ui_messages, a bad metadata file counted, an interrupted reply', async () => {
    const file = taskFile(TASK(2));
    const expected: HarvestedSession = {
      source: 'roo',
      sessionId: TASK(2),
      cwd: '/home/dev/shop',
      branch: '',
      model: '',
      startedAt: T4,
      endedAt: T4 + 9000,
      turns: [
        turn(0, 'user', 'Explain the retry logic', T4),
        turn(1, 'assistant', '', T4 + 1000, {
          toolNames: ['read_file'],
          actions: [act('read', 'read_file', 'src/retry.ts'), act('read', 'read_file', 'src/backoff.ts')],
        }),
        turn(2, 'assistant', 'It retries 3 times with exponential backoff.', T4 + 4000, {
          actions: [act('other', 'attempt_completion')],
        }),
        turn(3, 'user', 'What about jitter?', T4 + 8000, { interrupted: true }),
        turn(
          4,
          'assistant',
          'Jitter adds up to 20% to each wait.\n\n[Response interrupted by user]',
          T4 + 9000,
        ),
      ],
      toolsUsed: ['read_file', 'attempt_completion'],
      skillsUsed: [],
      filesTouched: ['src/retry.ts', 'src/backoff.ts'],
      sourcePath: file.path,
      sourceVersion: '',
    };
    expect(await roo.parse(file, 0)).toEqual({ sessions: [expected], badLines: 1, endOffset: file.size });
  });

  it('leaves out a subtask its parent task started', async () => {
    const file = taskFile(TASK(3));
    expect(await roo.parse(file, 0)).toEqual({ sessions: [], badLines: 0, endOffset: file.size });
  });
});
