/**
 * Reading another agent's SQLite database (OpenCode's `opencode.db`, Goose's `sessions.db`): opened
 * read-only, never locked for writing, while the agent may be writing its write-ahead log. A conversation in
 * such a store is harvested as a file of its own (`storeConversationFile`): its path is the database's with
 * `#<conversation id>`, its size and mtime the conversation's watermark (its row count and last update), so
 * the core's per-file cursor skips every conversation that did not change and re-reads only those that did.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { errnoCode } from '../../src/core/errors.js';
import { assertRegularFile } from '../../src/core/io/regular-file.js';
import type { SourceFile, SourceId } from '../../src/core/session.js';

export type StoreDb = Database.Database;
export type StoreRow = Record<string, unknown>;

/** The agent holds its write lock briefly per commit; wait this long for it before giving up. */
const BUSY_TIMEOUT_MS = 1000;
const CONVERSATION_MARK = '#';

/**
 * SQLite opens the database, its `-wal` and `-shm` by path with blocking calls: a FIFO at any of them would
 * hang the harvest for good. Only regular files (or an absent log) are opened. Read-only: no journal, no
 * checkpoint, no lock that would stop the agent writing; a WAL being written is read up to its last commit.
 */
export function openStoreReadOnly(dbPath: string): StoreDb {
  assertRegularFile(dbPath);
  for (const companion of [`${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      assertRegularFile(companion);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
  }
  return new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

/** Runs `work` on the store opened read-only, closing it whatever happens. */
export function withStore<T>(dbPath: string, work: (db: StoreDb) => T): T {
  const db = openStoreReadOnly(dbPath);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The columns a table has (none when it does not exist): stores of older versions lack some. */
export function columnsOf(db: StoreDb, table: string): Set<string> {
  const rows = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as StoreRow[];
  return new Set(rows.map((row) => String(row['name'])));
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** One conversation of a store as a harvested file (see the module comment). */
export function storeConversationFile(
  source: SourceId,
  dbPath: string,
  conversationId: string,
  watermark: { rows: number; updatedMs: number | null },
  dbInode: number,
  dbMtimeMs: number,
): SourceFile {
  return {
    source,
    path: `${dbPath}${CONVERSATION_MARK}${encodeURIComponent(conversationId)}`,
    size: watermark.rows,
    // The conversation's last update; a store that records none falls back to the database's own mtime.
    mtimeMs: watermark.updatedMs ?? dbMtimeMs,
    inode: dbInode,
  };
}

/** The database path and conversation id of a `storeConversationFile` path, or undefined for a plain file. */
export function splitConversationPath(filePath: string): { dbPath: string; id: string } | undefined {
  const at = filePath.lastIndexOf(CONVERSATION_MARK);
  if (at < 0) return undefined;
  try {
    return { dbPath: filePath.slice(0, at), id: decodeURIComponent(filePath.slice(at + 1)) };
  } catch {
    return undefined;
  }
}

/** Inode and mtime of the store (with its write-ahead log, where recent commits live), or undefined. */
export function storeStat(dbPath: string): { inode: number; mtimeMs: number } | undefined {
  try {
    const db = statSync(dbPath);
    if (!db.isFile()) return { inode: db.ino, mtimeMs: db.mtimeMs };
    let mtimeMs = db.mtimeMs;
    try {
      mtimeMs = Math.max(mtimeMs, statSync(`${dbPath}-wal`).mtimeMs);
    } catch {
      // No log: everything is in the database file.
    }
    return { inode: db.ino, mtimeMs };
  } catch {
    return undefined;
  }
}
