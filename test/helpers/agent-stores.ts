/**
 * The SQLite stores of OpenCode and Goose for tests: their fixtures are SQL text (the agents' own schema,
 * hand-written rows) under test/fixtures/<agent>/, built into a database where the agent keeps it.
 */
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');

/** Builds `dbPath` from an SQL file (tests' own copy; the agents' stores are never touched). */
export function buildStore(sqlFile: string, dbPath: string, walMode = false): void {
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  try {
    if (walMode) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF'); // a test's copy: no need to wait for the disk
    db.exec(`BEGIN; ${readFileSync(sqlFile, 'utf8')}; COMMIT;`);
  } finally {
    db.close();
  }
}

/** OpenCode's data folder in `home`: the JSON storage of the fixture, and `opencode.db` built from its SQL. */
export function installOpenCodeFixture(home: string): string {
  cpSync(path.join(FIXTURES, 'opencode', 'home'), home, { recursive: true });
  const dbPath = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
  buildStore(path.join(FIXTURES, 'opencode', 'opencode.sql'), dbPath);
  return dbPath;
}

/** Goose's sessions folder in `home`: the legacy `.jsonl` files of the fixture, and `sessions.db` from its SQL. */
export function installGooseFixture(home: string): string {
  cpSync(path.join(FIXTURES, 'goose', 'home'), home, { recursive: true });
  const dbPath = path.join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db');
  buildStore(path.join(FIXTURES, 'goose', 'sessions.sql'), dbPath);
  return dbPath;
}

/** Cursor's `User` folder in `home` (Linux layout): the global store and two workspaces with their stores. */
export function installCursorIdeFixture(home: string): string {
  cpSync(path.join(FIXTURES, 'cursor-ide', 'home'), home, { recursive: true });
  const user = path.join(home, '.config', 'Cursor', 'User');
  const sql = (name: string) => path.join(FIXTURES, 'cursor-ide', name);
  buildStore(sql('workspace-shop.sql'), path.join(user, 'workspaceStorage', 'a1b2c3', 'state.vscdb'));
  buildStore(sql('workspace-blog.sql'), path.join(user, 'workspaceStorage', 'd4e5f6', 'state.vscdb'));
  const dbPath = path.join(user, 'globalStorage', 'state.vscdb');
  buildStore(sql('global.sql'), dbPath);
  return dbPath;
}
