import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { installGooseFixture } from '../../test/helpers/agent-stores.js';
import { goose } from './goose.js';
import { act, turn } from '../shared/test-helpers.js';

let home: string;
let dbPath: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'goose-'));
  dbPath = installGooseFixture(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const sessions = () => path.join(home, '.local/share/goose/sessions');
const storeFile = (id: string) => `${dbPath}#${id}`;
async function parse(filePath: string) {
  const file = (await goose.discover({ home, env: {} })).find((f) => f.path === filePath);
  if (file === undefined) throw new Error(`not discovered: ${filePath}`);
  return goose.parse(file, 0);
}

describe('goose roots and discovery', () => {
  it('reads GOOSE_PATH_ROOT, else the XDG data folder and the Windows one', () => {
    expect(goose.roots({ home: '/h', env: { GOOSE_PATH_ROOT: '/g' } })).toEqual(['/g/data/sessions']);
    expect(goose.roots({ home: '/h', env: { GOOSE_PATH_ROOT: 'rel' } })[0]).toBe(
      '/h/.local/share/goose/sessions',
    );
    expect(goose.roots({ home: '/h', env: { XDG_DATA_HOME: '/x', APPDATA: '/a' } })).toEqual([
      '/x/goose/sessions',
      '/a/Block/goose/data/sessions',
    ]);
  });

  it("lists the user's sessions of the store and the legacy files the store did not import", async () => {
    const files = await goose.discover({ home, env: {} });
    expect(files.map((f) => f.path)).toEqual([
      storeFile('20260310_1'),
      storeFile('20260311_1'),
      path.join(sessions(), 'nightly.jsonl'),
      path.join(sessions(), 'rate-limit.jsonl'),
    ]);
    // Ten messages, the highest id 10; the session's updated_at.
    expect(files[0]).toMatchObject({ size: 20, mtimeMs: Date.UTC(2026, 2, 10, 9, 20) });
  });

  it('changes the watermark of the one session Goose rewrote', async () => {
    const before = new Map((await goose.discover({ home, env: {} })).map((f) => [f.path, f.size]));
    const db = new Database(dbPath);
    // replace_conversation: the same number of messages under new ids.
    db.exec(`DELETE FROM messages WHERE session_id = '20260311_1';
      INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES
      ('20260311_1', 'user', '[{"type":"text","text":"again"}]', 1773223200),
      ('20260311_1', 'assistant', '[{"type":"text","text":"ok"}]', 1773223201);`);
    db.close();
    for (const file of await goose.discover({ home, env: {} }))
      expect(file.size !== before.get(file.path), file.path).toBe(file.path === storeFile('20260311_1'));
  });
});

describe('goose.parse', () => {
  it('reads a store session exactly: prompts, answers, both tool generations as actions, tool errors', async () => {
    const parsed = await parse(storeFile('20260310_1'));
    expect(parsed.badLines).toBe(1);
    const s = parsed.sessions[0]!;
    expect({ ...s, turns: [] }).toEqual({
      source: 'goose',
      sessionId: '20260310_1',
      cwd: '/work/shop',
      branch: '',
      model: '',
      startedAt: Date.UTC(2026, 2, 10, 9),
      endedAt: Date.UTC(2026, 2, 10, 9, 20),
      turns: [],
      toolsUsed: ['developer__text_editor', 'developer__shell', 'write', 'edit', 'todo__write'],
      skillsUsed: [],
      filesTouched: ['/work/shop/src/export.ts', '/work/shop/test/quote.test.ts'],
      sourcePath: storeFile('20260310_1'),
      sourceVersion: '',
    });
    const file = '/work/shop/src/export.ts';
    expect(s.turns).toEqual([
      // The tool results are user messages of Goose's: the failed edit and the failing test count on the prompt.
      {
        seq: 0,
        ...turn('user', 'Make the CSV export include a header row.', 1773133200000, { toolErrors: 2 }),
      },
      {
        seq: 1,
        ...turn('assistant', 'Let me look at the exporter.', 1773133205000, {
          toolNames: ['developer__text_editor'],
          actions: [act('read', 'developer__text_editor', file)],
        }),
      },
      {
        seq: 2,
        ...turn('assistant', '', 1773133210000, {
          toolNames: ['developer__text_editor', 'developer__shell'],
          actions: [
            act(
              'edit',
              'developer__text_editor',
              file,
              'return [header(rows), ...rows.map(line)]',
              'return rows.map(line)',
            ),
            act('run', 'developer__shell', 'npm test -- export'),
          ],
        }),
      },
      { seq: 3, ...turn('assistant', 'The export now writes a header row first.', 1773133260000) },
      // The summary Goose added for itself (userVisible: false) is no prompt.
      { seq: 4, ...turn('user', 'Also quote fields that contain commas, and add a test.', 1773134000000) },
      {
        seq: 5,
        ...turn('assistant', '', 1773134010000, {
          toolNames: ['write', 'edit', 'todo__write'],
          actions: [
            act('write', 'write', '/work/shop/test/quote.test.ts', 'import { line } from "../src/export";\n'),
            act('edit', 'edit', file, 'r.map(quote).join(",")', 'r.join(",")'),
            act('other', 'todo__write'),
          ],
        }),
      },
    ]);
  });

  it('reads a legacy session file: metadata line, messages, a bad last line', async () => {
    const parsed = await parse(path.join(sessions(), 'rate-limit.jsonl'));
    expect(parsed.badLines).toBe(1);
    const s = parsed.sessions[0]!;
    expect([s.sessionId, s.cwd, s.startedAt, s.endedAt]).toEqual([
      'rate-limit',
      '/work/legacy-api',
      1760000000000,
      1760000020000,
    ]);
    expect(s.turns).toEqual([
      {
        seq: 0,
        ...turn('user', 'Add a rate limit of 100 requests per minute to the login route.', 1760000000000),
      },
      {
        seq: 1,
        ...turn('assistant', '', 1760000010000, {
          toolNames: ['developer__text_editor'],
          actions: [
            act(
              'write',
              'developer__text_editor',
              '/work/legacy-api/src/limit.ts',
              'export const limit = (n) => rateLimit({ max: n });\n',
            ),
          ],
        }),
      },
      { seq: 2, ...turn('assistant', 'Added src/limit.ts; the login route uses it.', 1760000020000) },
    ]);
  });

  it('gives no session for a scheduled run of the legacy format', async () => {
    expect((await parse(path.join(sessions(), 'nightly.jsonl'))).sessions).toEqual([]);
  });

  it('reads a store in WAL mode while Goose holds a write transaction open', async () => {
    const walHome = mkdtempSync(path.join(os.tmpdir(), 'goose-wal-'));
    try {
      const walDb = path.join(walHome, '.local/share/goose/sessions/sessions.db');
      mkdirSync(path.dirname(walDb), { recursive: true });
      const writer = new Database(walDb);
      writer.pragma('journal_mode = WAL');
      writer.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, session_type TEXT, working_dir TEXT, updated_at TEXT);
        CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER);
        INSERT INTO sessions VALUES ('s1', 'user', '/w', '2026-03-10 09:00:00');
        INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', 'user', '[{"type":"text","text":"committed"}]', 1773133200);`);
      writer.exec(
        `BEGIN IMMEDIATE; INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', 'user', '[{"type":"text","text":"not yet"}]', 1773133201);`,
      );
      const files = await goose.discover({ home: walHome, env: {} });
      expect(files.map((f) => path.basename(f.path))).toEqual(['sessions.db#s1']);
      expect((await goose.parse(files[0]!, 0)).sessions[0]?.turns.map((t) => t.text)).toEqual(['committed']);
      writer.exec('COMMIT');
      writer.close();
    } finally {
      rmSync(walHome, { recursive: true, force: true });
    }
  });

  it('rejects with an IoError naming a store that is not SQLite', async () => {
    const bad = path.join(home, 'bad');
    const file = path.join(bad, '.local/share/goose/sessions/sessions.db');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a database, just text pretending to be one'.repeat(200));
    const files = await goose.discover({ home: bad, env: {} });
    expect(files.map((f) => f.path)).toEqual([file]);
    const err: unknown = await goose.parse(files[0]!, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as Error).message).toContain(file);
  });
});
