import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { cline, CLINE_STORAGE_ENV, roo } from './cline.js';
import type { HarvestedSession, HarvestedTurn, SourceFile } from '../../src/core/session.js';
import { act } from '../shared/test-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', '..', 'test', 'fixtures', 'cline', 'globalStorage');
const STORAGE = 'saoudrizwan.claude-dev';
/** The fixture times: 2025-12-08T10:00:00Z and an hour later. */
const T = Date.UTC(2025, 11, 8, 10);
const T2 = T + 3_600_000;

let tmp: string;
let storage: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cline-harvest-'));
  const globalStorage = path.join(tmp, '.config', 'Code', 'User', 'globalStorage');
  cpSync(FIXTURES, globalStorage, { recursive: true });
  storage = path.join(globalStorage, STORAGE);
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function taskFile(id: string): SourceFile {
  const file = path.join(storage, 'tasks', id, 'api_conversation_history.json');
  const st = statSync(file);
  return { source: 'cline', path: file, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

/** A turn as the fixture holds it (offsets are 0: the files are read whole). */
function turn(
  seq: number,
  role: HarvestedTurn['role'],
  text: string,
  ts: number | null,
  more: Partial<HarvestedTurn> = {},
): HarvestedTurn {
  const actions = more.actions ?? [];
  return {
    seq,
    role,
    text,
    ts,
    toolNames: actions.map((a) => a.tool),
    actions,
    toolErrors: 0,
    interrupted: false,
    offset: 0,
    ...more,
  };
}

describe('cline roots and discovery', () => {
  it('looks in every VS Code build and fork, or only where the env says', () => {
    const roots = cline.roots({ home: '/home/u', env: {} });
    expect(roots).toContain(`/home/u/.config/Code/User/globalStorage/${STORAGE}`);
    expect(roots).toContain(`/home/u/.config/Cursor/User/globalStorage/${STORAGE}`);
    expect(roots).toContain(`/home/u/Library/Application Support/Windsurf/User/globalStorage/${STORAGE}`);
    expect(roots).toContain(`/home/u/.vscode-server/data/User/globalStorage/${STORAGE}`);
    expect(roo.roots({ home: '/home/u', env: {} })).toContain(
      '/home/u/.config/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline',
    );
    const env = { [CLINE_STORAGE_ENV]: '~/cline-a, /data/cline-b' };
    expect(cline.roots({ home: '/home/u', env })).toEqual(['/home/u/cline-a', '/data/cline-b']);
  });

  it('finds each task folder transcript, nothing else', async () => {
    const files = await cline.discover({ home: tmp, env: {} });
    expect(files.map((f) => path.relative(storage, f.path))).toEqual([
      'tasks/1765188000000/api_conversation_history.json',
      'tasks/1765191600000/api_conversation_history.json',
      'tasks/1765195200000/api_conversation_history.json',
      'tasks/1765198800000/api_conversation_history.json',
    ]);
    expect(files.every((f) => f.source === 'cline')).toBe(true);
    expect(await roo.discover({ home: tmp, env: {} })).toEqual([]);
  });
});

describe('cline.parse', () => {
  it('reads an XML-protocol task: typed text only, times from ui_messages, cwd from the task history', async () => {
    const parse = await cline.parse(taskFile('1765188000000'), 0);
    expect(parse.badLines).toBe(0);
    const expected: HarvestedSession = {
      source: 'cline',
      sessionId: '1765188000000',
      cwd: '/home/dev/acme',
      branch: '',
      model: 'claude-sonnet-4-5',
      startedAt: T,
      endedAt: T + 33_000,
      turns: [
        // The edit was denied during the task's exchange.
        turn(0, 'user', 'Add a --verbose flag to the CLI', T, { interrupted: true }),
        turn(1, 'assistant', '<thinking>Look at the CLI first.</thinking>', T + 1000, {
          actions: [act('read', 'read_file', 'src/cli.ts')],
        }),
        turn(2, 'assistant', "I'll add the flag.", T + 5000, {
          actions: [
            act(
              'edit',
              'replace_in_file',
              'src/cli.ts',
              'export function main(verbose = false) {}',
              'export function main() {}',
            ),
          ],
        }),
        // npm test failed after the feedback.
        turn(3, 'user', "Use commander's option() instead", T + 9000, { toolErrors: 1 }),
        turn(4, 'assistant', 'Switching to commander.', T + 10_000, {
          actions: [act('run', 'execute_command', 'npm install commander && npm test')],
        }),
        turn(5, 'assistant', '', T + 15_000, {
          actions: [
            act('write', 'write_to_file', 'src/flags.ts', 'export const verbose = program.opts().verbose;'),
          ],
        }),
        turn(6, 'assistant', '', T + 20_000, { actions: [act('search', 'search_files', 'verbose')] }),
        turn(7, 'assistant', '', T + 25_000, {
          actions: [act('search', 'list_files', 'src'), act('search', 'list_code_definition_names', 'src')],
        }),
        turn(8, 'assistant', '', T + 27_000, { actions: [act('other', 'ask_followup_question')] }),
        turn(9, 'user', 'Yes, add -v', T + 30_000),
        turn(10, 'assistant', '', T + 31_000, { actions: [act('other', 'attempt_completion')] }),
      ],
      toolsUsed: [
        'read_file',
        'replace_in_file',
        'execute_command',
        'write_to_file',
        'search_files',
        'list_files',
        'list_code_definition_names',
        'ask_followup_question',
        'attempt_completion',
      ],
      skillsUsed: [],
      filesTouched: ['src/cli.ts', 'src/flags.ts', 'README.md'],
      sourcePath: taskFile('1765188000000').path,
      sourceVersion: '3.38.1',
    };
    expect(parse.sessions).toEqual([expected]);
    expect(parse.endOffset).toBe(taskFile('1765188000000').size);
  });

  it('reads a native-tools task: message times, model, cwd from the environment details, a resumed task', async () => {
    const parse = await cline.parse(taskFile('1765191600000'), 0);
    const expected: HarvestedSession = {
      source: 'cline',
      sessionId: '1765191600000',
      cwd: '/home/dev/widgets',
      branch: '',
      model: 'gpt-5',
      startedAt: T2,
      endedAt: T2 + 605_000,
      turns: [
        turn(0, 'user', 'Why does the build fail?', T2, { toolErrors: 1 }),
        turn(1, 'assistant', 'Let me run the build.', T2 + 3000, {
          toolNames: ['execute_command', 'apply_patch', 'use_mcp_tool'],
          actions: [
            act('run', 'execute_command', 'npm run build'),
            act('edit', 'apply_patch', 'src/types.ts', 'export type Id = number', 'type Id = number'),
            act('write', 'apply_patch', 'src/ids.ts', 'export const first = 1'),
            act('other', 'use_mcp_tool'),
          ],
        }),
        turn(2, 'assistant', 'The type was not exported; it is now.', T2 + 6000),
        turn(3, 'user', 'Also update the changelog', T2 + 600_000),
        turn(4, 'assistant', '', T2 + 603_000, {
          actions: [act('write', 'write_to_file', 'CHANGELOG.md', '- Export the Id type\n')],
        }),
      ],
      toolsUsed: ['execute_command', 'apply_patch', 'use_mcp_tool', 'write_to_file'],
      skillsUsed: [],
      filesTouched: ['src/types.ts', 'src/ids.ts', 'CHANGELOG.md'],
      sourcePath: taskFile('1765191600000').path,
      sourceVersion: '',
    };
    expect(parse).toEqual({ sessions: [expected], badLines: 0, endOffset: taskFile('1765191600000').size });
  });

  it('counts a transcript that is not JSON as one bad line', async () => {
    const file = taskFile('1765195200000');
    expect(await cline.parse(file, 0)).toEqual({ sessions: [], badLines: 1, endOffset: file.size });
  });

  it('rejects with an IoError naming a missing or non-regular transcript', async () => {
    const missing = { ...taskFile('1765188000000'), path: path.join(storage, 'tasks', 'gone', 'x.json') };
    await expect(cline.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(cline.parse(missing, 0)).rejects.toThrow(missing.path);
    const dir = path.join(tmp, 'tasks', 'dir', 'api_conversation_history.json');
    mkdirSync(dir, { recursive: true });
    await expect(cline.parse({ ...missing, path: dir }, 0)).rejects.toThrow(IoError);
  });
});
