import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { installCursorIdeFixture } from '../../test/helpers/agent-stores.js';
import { cursorIde } from './cursor-ide.js';
import { act, turn } from '../shared/test-helpers.js';

let home: string;
let dbPath: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'cursor-ide-'));
  dbPath = installCursorIdeFixture(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const composer = (n: number) => `6f1d2c3b-0000-4000-8000-00000000000${n}`;
const storeFile = (n: number) => `${dbPath}#${composer(n)}`;
async function parse(n: number) {
  const file = (await cursorIde.discover({ home, env: {} })).find((f) => f.path === storeFile(n));
  if (file === undefined) throw new Error(`not discovered: ${composer(n)}`);
  return cursorIde.parse(file, 0);
}

describe('cursor-ide roots and discovery', () => {
  it('watches the global store of every Cursor profile folder (Linux, macOS, Windows, server) and its log', () => {
    const roots = cursorIde.roots({ home: '/h', env: {} });
    expect(roots.filter((r) => r.endsWith('state.vscdb'))).toEqual([
      '/h/.config/Cursor/User/globalStorage/state.vscdb',
      '/h/Library/Application Support/Cursor/User/globalStorage/state.vscdb',
      '/h/AppData/Roaming/Cursor/User/globalStorage/state.vscdb',
      '/h/.cursor-server/data/User/globalStorage/state.vscdb',
    ]);
    expect(roots).toContain('/h/.config/Cursor/User/globalStorage/state.vscdb-wal');
  });

  it('lists every composer of the global store with its watermark; only the changed one moves', async () => {
    const before = await cursorIde.discover({ home, env: {} });
    expect(before.map((f) => f.path)).toEqual([1, 2, 3, 4].map(storeFile));
    expect(before[0]?.mtimeMs).toBe(1773137400000);
    const db = new Database(dbPath);
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(
      `bubbleId:${composer(2)}:c3`,
      '{"type":1,"bubbleId":"c3","text":"shorter"}',
    );
    db.close();
    const after = new Map((await cursorIde.discover({ home, env: {} })).map((f) => [f.path, f.size]));
    for (const file of before)
      expect(after.get(file.path) !== file.size, file.path).toBe(file.path === storeFile(2));
  });
});

describe('cursorIde.parse', () => {
  it('reads a composer exactly: its workspace, prompts, answers over several bubbles, tool calls', async () => {
    const parsed = await parse(1);
    expect(parsed.badLines).toBe(1);
    const s = parsed.sessions[0]!;
    expect({ ...s, turns: [] }).toEqual({
      source: 'cursor-ide',
      sessionId: composer(1),
      cwd: '/work/shop',
      branch: '',
      model: '',
      startedAt: 1773136800000,
      endedAt: 1773137400000,
      turns: [],
      toolsUsed: ['read_file', 'search_replace', 'run_terminal_cmd', 'edit_file'],
      skillsUsed: [],
      filesTouched: ['/work/shop/src/export.ts'],
      sourcePath: storeFile(1),
      sourceVersion: '',
    });
    const file = '/work/shop/src/export.ts';
    expect(s.turns).toEqual([
      {
        seq: 0,
        ...turn('user', 'Make the CSV export include a header row.', 1773136800000, { toolErrors: 1 }),
      },
      {
        seq: 1,
        ...turn('assistant', 'The export now writes a header row first.', 1773136805000, {
          toolNames: ['read_file', 'search_replace', 'run_terminal_cmd'],
          actions: [
            act('read', 'read_file', file),
            act(
              'edit',
              'search_replace',
              file,
              'return [header(rows), ...rows.map(line)]',
              'return rows.map(line)',
            ),
            act('run', 'run_terminal_cmd', 'npm test -- export'),
          ],
        }),
      },
      // The edit the user cancelled marks the prompt interrupted.
      {
        seq: 2,
        ...turn('user', 'Also quote fields that contain commas.', 1773137280000, { interrupted: true }),
      },
      {
        seq: 3,
        ...turn('assistant', '', null, {
          toolNames: ['edit_file'],
          actions: [act('edit', 'edit_file', file, 'const line = (r) => r.map(quote).join(",")')],
        }),
      },
    ]);
  });

  it("reads the older inline conversation, in its workspace's folder", async () => {
    const s = (await parse(2)).sessions[0]!;
    expect([s.cwd, s.startedAt, s.endedAt]).toEqual(['/work/blog', 1773223200000, 1773223500000]);
    expect(s.turns.map((t) => [t.role, t.text, t.ts])).toEqual([
      ['user', 'Write a draft post about the release.', 1773223200000],
      ['assistant', 'Here is a draft: ...', null],
    ]);
  });

  it('gives no session for a composer without messages', async () => {
    expect((await parse(4)).sessions).toEqual([]);
  });

  it('rejects with an IoError naming a global store that is not SQLite', async () => {
    const bad = path.join(home, 'bad');
    const file = path.join(bad, '.config/Cursor/User/globalStorage/state.vscdb');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a database, just text pretending to be one'.repeat(200));
    const files = await cursorIde.discover({ home: bad, env: {} });
    expect(files.map((f) => f.path)).toEqual([file]);
    const err: unknown = await cursorIde.parse(files[0]!, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as Error).message).toContain(file);
  });
});
