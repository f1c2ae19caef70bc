import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copilot, WORKSPACE_STORAGE_ENV } from './copilot-vscode.js';
import type { HarvestContext } from '../types.js';
import type { SourceFile, HarvestedSession, HarvestedTurn, ToolAction } from '../../src/core/session.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, '..', '..', 'test', 'fixtures', 'copilot');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-harvest-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** The fixture tree installed as a Linux VS Code profile in the temp home. */
function installFixtures(userDir = path.join(tmp, '.config', 'Code', 'User')): string {
  cpSync(path.join(FIXTURES, 'User'), userDir, { recursive: true });
  cpSync(path.join(FIXTURES, 'projects'), path.join(tmp, 'projects'), { recursive: true });
  // workspace.json holds an absolute URI, so the multi-root fixture points into this temp copy.
  const workspaceJson = path.join(userDir, 'workspaceStorage', '4d5e6f-multiroot', 'workspace.json');
  const text = readFileSync(workspaceJson, 'utf8').replace('__FIXTURE_ROOT_URI__', pathToFileURL(tmp).href);
  writeFileSync(workspaceJson, text);
  return path.join(userDir, 'workspaceStorage');
}

function ctx(env: Record<string, string | undefined> = {}): HarvestContext {
  return { home: tmp, env };
}

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'copilot', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

async function onlySession(filePath: string): Promise<HarvestedSession> {
  const { sessions } = await copilot.parse(sourceFile(filePath), 0);
  expect(sessions).toHaveLength(1);
  const [session] = sessions;
  if (session === undefined) throw new Error('no session');
  return session;
}

function action(kind: ToolAction['kind'], tool: string, target = '', added = '', removed = ''): ToolAction {
  return { kind, tool, target, added, removed };
}

function turn(seq: number, role: HarvestedTurn['role'], text: string, extra: Partial<HarvestedTurn> = {}) {
  return {
    seq,
    role,
    text,
    ts: null,
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
    offset: 0,
    ...extra,
  };
}

const iso = (s: string) => Date.parse(s);

describe('copilot.roots', () => {
  const fixed = (env: Record<string, string | undefined>) => copilot.roots({ home: '/home/u', env });

  it('lists stable, Insiders and VSCodium roots for Linux, macOS, Windows and server installs', () => {
    const roots = fixed({});
    expect(roots.slice(0, 3)).toEqual([
      path.resolve('/home/u/.config/Code/User/workspaceStorage'),
      path.resolve('/home/u/.config/Code - Insiders/User/workspaceStorage'),
      path.resolve('/home/u/.config/VSCodium/User/workspaceStorage'),
    ]);
    expect(roots).toContain(path.resolve('/home/u/Library/Application Support/Code/User/workspaceStorage'));
    expect(roots).toContain(path.resolve('/home/u/AppData/Roaming/Code - Insiders/User/workspaceStorage'));
    expect(roots).toContain(path.resolve('/home/u/.vscode-server/data/User/workspaceStorage'));
    expect(roots).toContain(path.resolve('/home/u/.config/Code/User/globalStorage/emptyWindowChatSessions'));
    expect(roots.every((r) => r.startsWith(path.resolve('/home/u')))).toBe(true);
    expect(new Set(roots).size).toBe(roots.length);
  });

  it('honours XDG_CONFIG_HOME and APPDATA, and puts the portable install first', () => {
    const roots = fixed({
      XDG_CONFIG_HOME: '/xdg',
      APPDATA: '/win/Roaming',
      VSCODE_PORTABLE: '/opt/vscode/data',
    });
    expect(roots[0]).toBe(path.resolve('/opt/vscode/data/user-data/User/workspaceStorage'));
    expect(roots).toContain(path.resolve('/xdg/Code/User/workspaceStorage'));
    expect(roots).toContain(path.resolve('/win/Roaming/Code/User/workspaceStorage'));
    expect(roots).not.toContain(path.resolve('/home/u/.config/Code/User/workspaceStorage'));
    expect(roots).not.toContain(path.resolve('/home/u/AppData/Roaming/Code/User/workspaceStorage'));
  });

  it('ignores blank variables and never reads the host environment', () => {
    expect(fixed({ XDG_CONFIG_HOME: ' ', VSCODE_PORTABLE: '' })).toEqual(fixed({}));
  });

  it('uses only the explicit override when it is set', () => {
    expect(fixed({ [WORKSPACE_STORAGE_ENV]: '/data/ws, ~/other ,,/data/ws', VSCODE_PORTABLE: '/p' })).toEqual(
      [
        path.resolve('/data/ws'),
        path.resolve('/home/u/other'),
        path.resolve('/data/globalStorage/emptyWindowChatSessions'),
        path.resolve('/home/u/globalStorage/emptyWindowChatSessions'),
      ],
    );
  });
});

describe('copilot.discover', () => {
  it('finds chat sessions and uncovered transcripts, and nothing else', async () => {
    const storage = installFixtures();
    const found = await copilot.discover(ctx());
    const rel = found.map((f) => path.relative(path.dirname(storage), f.path).split(path.sep).join('/'));
    expect(rel).toEqual([
      'workspaceStorage/1a2b3c-folder/chatSessions/broken-0004.json',
      'workspaceStorage/1a2b3c-folder/chatSessions/dup-0003.jsonl', // hides dup-0003.json
      'workspaceStorage/1a2b3c-folder/chatSessions/legacy-0001.json',
      'workspaceStorage/1a2b3c-folder/chatSessions/oplog-0002.jsonl',
      // transcripts/oplog-0002.jsonl is the same session as chatSessions/oplog-0002.jsonl
      'workspaceStorage/1a2b3c-folder/GitHub.copilot-chat/transcripts/events-0005.jsonl',
      'workspaceStorage/4d5e6f-multiroot/chatSessions/multi-0006.json',
      'workspaceStorage/7a8b9c-nofolder/chatSessions/nofolder-0007.jsonl',
      'globalStorage/emptyWindowChatSessions/empty-0009.json',
    ]);
    const first = found[0];
    expect(first?.source).toBe('copilot');
    expect(first?.size).toBe(statSync(first?.path ?? '').size);
    expect(first?.inode).toBeGreaterThan(0);
  });

  it('finds sessions under macOS, Windows, portable and server layouts of the same home', async () => {
    const layouts = {
      mac: path.join(tmp, 'Library', 'Application Support', 'Code - Insiders', 'User'),
      win: path.join(tmp, 'win', 'Roaming', 'VSCodium', 'User'),
      portable: path.join(tmp, 'portable', 'user-data', 'User'),
      server: path.join(tmp, '.vscode-server', 'data', 'User'),
    };
    for (const [name, userDir] of Object.entries(layouts)) {
      const dir = path.join(userDir, 'workspaceStorage', `hash-${name}`, 'chatSessions');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${name}.jsonl`), '{"kind":0,"v":{"requests":[]}}\n');
    }
    const found = await copilot.discover(
      ctx({ APPDATA: path.join(tmp, 'win', 'Roaming'), VSCODE_PORTABLE: path.join(tmp, 'portable') }),
    );
    expect(found.map((f) => path.basename(f.path)).sort()).toEqual([
      'mac.jsonl',
      'portable.jsonl',
      'server.jsonl',
      'win.jsonl',
    ]);
  });

  it('returns nothing when no VS Code profile exists', async () => {
    expect(await copilot.discover(ctx())).toEqual([]);
  });

  it('does not follow a symlinked workspace folder', async () => {
    const storage = path.join(tmp, '.config', 'Code', 'User', 'workspaceStorage');
    const elsewhere = path.join(tmp, 'elsewhere', 'chatSessions');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(path.join(elsewhere, 'x.json'), '{}');
    mkdirSync(storage, { recursive: true });
    symlinkSync(path.join(tmp, 'elsewhere'), path.join(storage, 'linked'));
    expect(await copilot.discover(ctx())).toEqual([]);
  });
});

describe('copilot.parse: whole-session JSON', () => {
  it('turns each kept request into a prompt and its answer', async () => {
    const storage = installFixtures();
    const file = path.join(storage, '1a2b3c-folder', 'chatSessions', 'legacy-0001.json');
    const session = await onlySession(file);
    expect(session).toMatchObject({
      source: 'copilot',
      sessionId: 'legacy-0001',
      cwd: '/tmp/copilot demo',
      branch: '',
      model: 'copilot/gpt-5',
      sourceVersion: '0.33.0',
      startedAt: 1767225590000,
      endedAt: 1767225781000,
      toolsUsed: ['copilot_readFile', 'run_in_terminal', 'copilot_runTests'],
      skillsUsed: [],
      filesTouched: ['/tmp/copilot demo/src/parser.ts'],
      sourcePath: file,
    });
    expect(session.turns).toEqual([
      turn(0, 'user', 'Add input validation to #file:parser.ts', { ts: 1767225600000 }),
      turn(
        1,
        'assistant',
        "I'll read parser.ts first.\n\nHere is the check:\n\n```ts\nif (!input) throw new Error('empty');\n```\n\n" +
          'validateInput now rejects empty input.',
        {
          ts: 1767225604000,
          toolNames: ['copilot_readFile'],
          // The read names its file only in `rawInput`; the edit group follows no edit tool.
          actions: [
            action('read', 'copilot_readFile', '/tmp/copilot demo/src/parser.ts'),
            action('edit', 'textEditGroup', '/tmp/copilot demo/src/parser.ts', 'EDIT_CONTENT'),
          ],
        },
      ),
      // Cancelled, with a refused terminal command: one interrupt, and the cancellation is no error.
      turn(2, 'user', 'Also run the tests', { ts: 1767225660000, interrupted: true }),
      turn(3, 'assistant', 'Running the test suite.', {
        ts: 1767225660000,
        toolNames: ['run_in_terminal'],
        // Refused, and still what the agent tried (the user's next prompt says what it wanted instead).
        actions: [action('run', 'run_in_terminal', 'npm test -- parser')],
      }),
      // A failed tool and a failed request.
      turn(4, 'user', 'Try again with the fix', { ts: 1767225720000, toolErrors: 2 }),
      turn(5, 'assistant', '', {
        ts: 1767225720000,
        toolNames: ['copilot_runTests'],
        actions: [action('other', 'copilot_runTests')],
      }),
      // No agent (older sessions): kept; the prompt comes from the message parts.
      turn(6, 'user', 'Thanks, that works', { ts: 1767225780000 }),
      turn(7, 'assistant', 'Glad it helped!', { ts: 1767225781000 }),
    ]);
  });

  it('keeps no thinking, tool outputs, rendered context, or dropped requests and their answers', async () => {
    const storage = installFixtures();
    const session = await onlySession(
      path.join(storage, '1a2b3c-folder', 'chatSessions', 'legacy-0001.json'),
    );
    const stored = JSON.stringify(session);
    for (const marker of [
      'PRIVATE',
      'SECRET',
      'RENDERED',
      'PROGRESS_NOISE',
      'SYSTEM_RESPONSE',
      'FOREIGN',
      'foreign provider prompt',
      'ORPHAN',
      'continue',
      'environment_info',
    ]) {
      expect(stored).not.toContain(marker);
    }
  });

  it('counts invalid JSON as one bad line and returns no session', async () => {
    const storage = installFixtures();
    const file = path.join(storage, '1a2b3c-folder', 'chatSessions', 'broken-0004.json');
    expect(await copilot.parse(sourceFile(file), 0)).toEqual({
      sessions: [],
      badLines: 1,
      endOffset: statSync(file).size,
    });
  });

  it('uses the file stem without a sessionId and reads epoch seconds', async () => {
    const storage = installFixtures();
    const session = await onlySession(
      path.join(storage, '4d5e6f-multiroot', 'chatSessions', 'multi-0006.json'),
    );
    expect(session.sessionId).toBe('multi-0006');
    expect(session.startedAt).toBe(1767398400000);
    expect(session.turns.map((t) => t.text)).toEqual([
      'Explain the build script',
      'It runs tsc, then copies the templates.',
    ]);
  });

  it('drops a session whose every request was dropped, and tolerates blank and non-object files', async () => {
    const file = path.join(tmp, 'only-dropped.json');
    const request = { message: { text: 'go on' }, isSystemInitiated: true, response: [{ value: 'x' }] };
    writeFileSync(file, JSON.stringify({ sessionId: 's', requests: [request, 'junk', null] }));
    expect((await copilot.parse(sourceFile(file), 0)).sessions).toEqual([]);
    writeFileSync(file, '  \n');
    expect(await copilot.parse(sourceFile(file), 0)).toMatchObject({ sessions: [], badLines: 0 });
    writeFileSync(file, '[1, 2]');
    expect(await copilot.parse(sourceFile(file), 0)).toMatchObject({ sessions: [], badLines: 1 });
  });
});

describe('copilot.parse: op log', () => {
  it('replays patches, ignores a truncated last line and counts a bad one', async () => {
    const storage = installFixtures();
    const file = path.join(storage, '1a2b3c-folder', 'chatSessions', 'oplog-0002.jsonl');
    const result = await copilot.parse(sourceFile(file), 0);
    expect(result.badLines).toBe(1);
    // The truncated line is left for a later read: the parse ends at its start.
    const bytes = readFileSync(file);
    expect(result.endOffset).toBe(bytes.lastIndexOf(0x0a) + 1);
    expect(result.endOffset).toBeLessThan(statSync(file).size);
    const [session] = result.sessions;
    expect(result.sessions).toHaveLength(1);
    expect(session).toMatchObject({
      sessionId: 'oplog-0002',
      cwd: '/tmp/copilot demo',
      model: 'copilot/claude-sonnet-4.5',
      sourceVersion: '0.37.1',
      startedAt: 1767312000000,
      endedAt: 1767312070000,
      toolsUsed: ['copilot_findTextInFiles'],
    });
    expect(session?.turns).toEqual([
      turn(0, 'user', 'Rename the config loader', { ts: 1767312010000 }),
      turn(1, 'assistant', 'Renamed `loadConfig` to `readConfig` in config.ts.', { ts: 1767312015000 }),
      turn(2, 'user', 'Now update the callers', { ts: 1767312060000 }),
      turn(3, 'assistant', 'Updated 3 callers.', {
        ts: 1767312070000,
        toolNames: ['copilot_findTextInFiles'],
        // The invocation recorded no message, so nothing says what it searched for.
        actions: [action('search', 'copilot_findTextInFiles')],
      }),
    ]);
    expect(JSON.stringify(session)).not.toMatch(/obsolete|TRUNCATED|ignored/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('prefers the op log over the legacy document of the same session', async () => {
    const storage = installFixtures();
    const session = await onlySession(path.join(storage, '1a2b3c-folder', 'chatSessions', 'dup-0003.jsonl'));
    expect(session.turns.map((t) => t.text)).toEqual(['Fresh prompt from the op log', 'Fresh answer.']);
  });

  it('reads the whole file whatever offset it is given', async () => {
    const storage = installFixtures();
    const file = sourceFile(path.join(storage, '1a2b3c-folder', 'chatSessions', 'oplog-0002.jsonl'));
    expect(copilot.incremental).toBe(false);
    expect(await copilot.parse(file, 200)).toEqual(await copilot.parse(file, 0));
  });
});

describe('copilot.parse: projects', () => {
  it('resolves a multi-root workspace to its first folder', async () => {
    const storage = installFixtures();
    const session = await onlySession(
      path.join(storage, '4d5e6f-multiroot', 'chatSessions', 'multi-0006.json'),
    );
    expect(session.cwd).toBe(path.join(tmp, 'projects', 'multi root', 'app'));
  });

  it('gives no project without workspace.json or for an empty window', async () => {
    const storage = installFixtures();
    const noFolder = await onlySession(
      path.join(storage, '7a8b9c-nofolder', 'chatSessions', 'nofolder-0007.jsonl'),
    );
    expect(noFolder).toMatchObject({ sessionId: 'nofolder-0007', cwd: '' });
    const emptyWindow = path.join(
      path.dirname(storage),
      'globalStorage',
      'emptyWindowChatSessions',
      'empty-0009.json',
    );
    expect(await onlySession(emptyWindow)).toMatchObject({ sessionId: 'empty-0009', cwd: '' });
  });
});

describe('copilot.parse: extension transcripts', () => {
  it('reads the event stream with the workspace folder as cwd', async () => {
    const storage = installFixtures();
    const file = path.join(
      storage,
      '1a2b3c-folder',
      'GitHub.copilot-chat',
      'transcripts',
      'events-0005.jsonl',
    );
    const result = await copilot.parse(sourceFile(file), 0);
    expect(result.badLines).toBe(1);
    expect(result.endOffset).toBe(statSync(file).size);
    const [session] = result.sessions;
    expect(session).toMatchObject({
      sessionId: 'events-0005',
      cwd: '/tmp/copilot demo',
      sourceVersion: '0.37.6',
      startedAt: iso('2026-01-03T10:00:00.000Z'),
      endedAt: iso('2026-01-03T10:01:02.000Z'),
      toolsUsed: ['read_file', 'apply_patch', 'get_errors', 'grep_search'],
      skillsUsed: ['api-design'],
      filesTouched: ['/tmp/copilot demo/src/server.ts'],
    });
    expect(session?.turns).toEqual([
      turn(0, 'user', 'Add a health check endpoint', { ts: iso('2026-01-03T10:00:01.000Z'), toolErrors: 1 }),
      turn(1, 'assistant', "I'll look at the server first.", {
        ts: iso('2026-01-03T10:00:03.000Z'),
        toolNames: ['read_file'],
        actions: [action('read', 'read_file', '/tmp/copilot demo/src/server.ts')],
      }),
      turn(2, 'assistant', '', {
        ts: iso('2026-01-03T10:00:05.000Z'),
        toolNames: ['apply_patch', 'get_errors'],
        actions: [
          action(
            'edit',
            'apply_patch',
            '/tmp/copilot demo/src/server.ts',
            "app.get('/health', (_req, res) => res.send('ok'));",
          ),
          action('other', 'get_errors'),
        ],
      }),
      turn(3, 'assistant', 'Added GET /health.', { ts: iso('2026-01-03T10:00:08.000Z') }),
      turn(4, 'user', 'Stop, use /healthz instead', {
        ts: iso('2026-01-03T10:01:00.000Z'),
        interrupted: true,
      }),
    ]);
    expect(JSON.stringify(session)).not.toMatch(/SECRET|PRIVATE|INJECTED|SUBAGENT|preloaded/);
  });
});
