import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import { copilotCli } from './copilot-cli.js';
import type { SourceFile } from '../../src/core/session.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_STATE = path.join(
  here,
  '..',
  '..',
  'test',
  'fixtures',
  'copilot-cli',
  '.copilot',
  'session-state',
);
const S1 = 'c0ffee00-0000-4000-8000-000000000001';
const S3 = 'c0ffee00-0000-4000-8000-000000000003';
const S3_FLAT = path.join(FIXTURE_STATE, `${S3}.jsonl`);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-cli-store-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'copilot-cli', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

async function parseFile(filePath: string, fromOffset = 0) {
  return copilotCli.parse(sourceFile(filePath), fromOffset);
}

const utc = (iso: string) => Date.parse(iso);

// The store is binary, so each test builds one with the schema SkillOpt's tests describe (harvest-spec §5.2).

interface StoreSession {
  id: string;
  cwd?: string | null;
  branch?: string;
  created_at?: string;
  updated_at?: string;
  turns?: Array<[number, string | null, string | null, string | null]>;
  files?: Array<[string, string]>;
}

const STORE_SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, branch TEXT, summary TEXT,
    created_at TEXT, updated_at TEXT, host_type TEXT);
  CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT,
    timestamp TEXT);
  CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT);`;

function writeStore(dbPath: string, sessions: StoreSession[], schema = STORE_SCHEMA): void {
  const db = new Database(dbPath);
  try {
    db.exec(schema);
    for (const s of sessions) {
      db.prepare(
        'INSERT INTO sessions (id, cwd, branch, created_at, updated_at, host_type) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(s.id, s.cwd ?? null, s.branch ?? '', s.created_at ?? null, s.updated_at ?? null, 'cli');
      for (const [index, user, assistant, ts] of s.turns ?? []) {
        db.prepare(
          'INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES (?, ?, ?, ?, ?)',
        ).run(s.id, index, user, assistant, ts);
      }
      for (const [filePath, tool] of s.files ?? []) {
        db.prepare('INSERT INTO session_files (session_id, file_path, tool_name) VALUES (?, ?, ?)').run(
          s.id,
          filePath,
          tool,
        );
      }
    }
  } finally {
    db.close();
  }
}

function storeHome(): { home: string; dbPath: string } {
  const home = path.join(tmp, '.copilot');
  mkdirSync(path.join(home, 'session-state'), { recursive: true });
  return { home, dbPath: path.join(home, 'session-store.db') };
}

describe('copilotCli.parse session-store.db', () => {
  const STORE_ONLY: StoreSession = {
    id: 'store-only-1',
    cwd: '/work/api',
    branch: 'feature/login',
    created_at: '2026-01-10 12:00:00',
    updated_at: '2026-01-10T12:30:00.000Z',
    turns: [
      // Out of order on purpose: turn_index decides.
      [1, 'Now add a test for the refresh path', 'Added tests/refresh.test.ts.', '2026-01-10 12:20:00'],
      [
        0,
        'Fix the token refresh bug in auth.ts',
        'The expiry check was inverted; fixed.',
        '2026-01-10 12:05:00',
      ],
      [2, '/clear', null, '2026-01-10 12:25:00'],
      [3, '<system-reminder>ctx</system-reminder>', '', '2026-01-10 12:26:00'],
    ],
    files: [
      ['/work/api/src/auth.ts', 'edit'],
      ['/work/api/tests/refresh.test.ts', 'create'],
      ['/work/api/src/auth.ts', 'view'],
    ],
  };

  it('reads sessions read-only, with turns in turn order and offset 0', async () => {
    const { dbPath } = storeHome();
    writeStore(dbPath, [STORE_ONLY, { id: 'no-turns', cwd: '/work/api', turns: [] }]);
    const before = readFileSync(dbPath);
    const { sessions, badLines, endOffset } = await parseFile(dbPath);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(existsSync(`${dbPath}-journal`) || existsSync(`${dbPath}-wal`)).toBe(false);
    expect(badLines).toBe(0);
    expect(endOffset).toBe(0);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      source: 'copilot-cli',
      sessionId: 'store-only-1',
      cwd: '/work/api',
      branch: 'feature/login',
      model: '',
      startedAt: utc('2026-01-10T12:00:00Z'),
      endedAt: utc('2026-01-10T12:30:00Z'),
      toolsUsed: ['create', 'edit', 'view'],
      skillsUsed: [],
      filesTouched: ['/work/api/src/auth.ts', '/work/api/tests/refresh.test.ts'],
      sourcePath: dbPath,
      sourceVersion: '',
    });
    expect(sessions[0]?.turns).toEqual([
      t(0, 'user', 'Fix the token refresh bug in auth.ts', '2026-01-10T12:05:00Z'),
      t(1, 'assistant', 'The expiry check was inverted; fixed.', '2026-01-10T12:05:00Z'),
      t(2, 'user', 'Now add a test for the refresh path', '2026-01-10T12:20:00Z'),
      t(3, 'assistant', 'Added tests/refresh.test.ts.', '2026-01-10T12:20:00Z'),
    ]);
  });

  const t = (seq: number, role: 'user' | 'assistant', text: string, iso: string) => ({
    seq,
    role,
    text,
    ts: utc(iso),
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
    offset: 0,
  });

  it('ignores fromOffset: the store is parsed whole every time', async () => {
    const { dbPath } = storeHome();
    writeStore(dbPath, [STORE_ONLY]);
    expect(await parseFile(dbPath, 4096)).toEqual(await parseFile(dbPath, 0));
  });

  it('leaves out sessions that have an events.jsonl stream, so one session is stored', async () => {
    const { home, dbPath } = storeHome();
    cpSync(path.join(FIXTURE_STATE, S1), path.join(home, 'session-state', S1), { recursive: true });
    cpSync(S3_FLAT, path.join(home, 'session-state', `${S3}.jsonl`));
    const turns: StoreSession['turns'] = [[0, 'Add a --verbose flag', 'Done.', '2026-02-03 09:00:10']];
    writeStore(dbPath, [STORE_ONLY, { id: S1, cwd: '/work/demo', turns }, { id: S3, cwd: '/w', turns }]);
    const { sessions } = await parseFile(dbPath);
    expect(sessions.map((s) => s.sessionId)).toEqual(['store-only-1']);
    // The stream of S1 carries the same id, so the core upserts one session.
    const stream = await parseFile(path.join(home, 'session-state', S1, 'events.jsonl'));
    expect(stream.sessions.map((s) => s.sessionId)).toEqual([S1]);
  });

  it('tolerates schema drift: missing columns and tables', async () => {
    const { dbPath } = storeHome();
    const db = new Database(dbPath);
    db.exec(`CREATE TABLE sessions (id TEXT, cwd TEXT, extra_new_column TEXT);
             CREATE TABLE turns (session_id TEXT, user_message TEXT, assistant_response TEXT);
             INSERT INTO sessions VALUES ('drift-1', '/work/x', 'whatever');
             INSERT INTO turns VALUES ('drift-1', 'Summarise the open issues', 'There are three.');`);
    db.close();
    const { sessions } = await parseFile(dbPath);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ sessionId: 'drift-1', cwd: '/work/x', branch: '', startedAt: null });
    expect(sessions[0]?.turns.map((x) => [x.role, x.text, x.ts])).toEqual([
      ['user', 'Summarise the open issues', null],
      ['assistant', 'There are three.', null],
    ]);
    expect(sessions[0]?.toolsUsed).toEqual([]);
  });

  it('returns nothing for an SQLite file without a sessions table', async () => {
    const { dbPath } = storeHome();
    const db = new Database(dbPath);
    db.exec('CREATE TABLE something_else (x TEXT)');
    db.close();
    expect(await parseFile(dbPath)).toEqual({ sessions: [], badLines: 0, endOffset: 0, readWhole: true });
  });

  it('rejects with an IoError naming a corrupt store', async () => {
    const { dbPath } = storeHome();
    writeFileSync(dbPath, 'this is not an SQLite database, just text pretending to be one'.repeat(100));
    await expect(parseFile(dbPath)).rejects.toThrow(IoError);
    await expect(parseFile(dbPath)).rejects.toThrow(dbPath);
  });

  it('rejects with an IoError naming a locked store', async () => {
    const { dbPath } = storeHome();
    writeStore(dbPath, [STORE_ONLY]);
    const writer = new Database(dbPath);
    writer.exec('BEGIN EXCLUSIVE');
    try {
      const err: unknown = await parseFile(dbPath).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IoError);
      expect((err as Error).message).toContain(dbPath);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('rejects with an IoError naming a store that vanished', async () => {
    const { dbPath } = storeHome();
    writeStore(dbPath, []);
    const file = sourceFile(dbPath);
    rmSync(dbPath);
    await expect(copilotCli.parse(file, 0)).rejects.toThrow(dbPath);
  });
});
