/**
 * The store's file on disk, before SQLite opens it. A new store is made whole under a temporary name
 * and linked into place, so a `store.sqlite` of 0 bytes is never one we made: it is a store whose
 * history is gone (truncated, a failed copy), and it is refused, never silently taken as a new one.
 * A read-only store is refused before SQLite opens it (SQLite would make its `-shm` read-only too);
 * `-wal` and `-shm` are SQLite's scratch files, and one left without owner read/write is repaired.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  linkSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IoError, errnoCode } from '../core/errors.js';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../core/io/private-mode.js';
import { processAlive } from '../core/process-identity.js';

const SCRATCH = ['-wal', '-shm'] as const;

/** Make sure `file` is a store we may open: created whole when missing, refused when it cannot be one. */
export function prepareStoreFile(file: string, migrate: (db: Database.Database) => void): void {
  makePrivateDir(path.dirname(file));
  let st = statSync(file, { throwIfNoEntry: false });
  if (st === undefined) {
    createStore(file, migrate);
    st = statSync(file);
  }
  if (st.isDirectory()) {
    throw new IoError(
      `store ${file} is a folder, not a database: move it away and run again`,
      'store_unreadable',
    );
  }
  if (st.size === 0) {
    throw new IoError(
      `store ${file} is empty (0 bytes): the history it held is gone, and it was left as it is. Restore it from a backup, or remove it (rm '${file}') to start a new store`,
      'store_empty',
    );
  }
  if (!canWrite(file)) {
    throw new IoError(
      `store ${file} is read-only (mode ${(st.mode & 0o777).toString(8)}): every command writes to it; make it writable (chmod 600 '${file}') and run again`,
      'store_read_only',
    );
  }
  for (const side of SCRATCH) repairScratch(file + side);
}

function canWrite(file: string): boolean {
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Give a scratch file back the owner's read/write (SQLite made it read-only beside a read-only store). */
function repairScratch(side: string): void {
  const st = statSync(side, { throwIfNoEntry: false });
  if (st === undefined || (st.mode & 0o600) === 0o600) return;
  try {
    chmodSync(side, PRIVATE_FILE_MODE);
  } catch (err) {
    if (errnoCode(err) !== 'EPERM') throw err;
  }
}

/**
 * A new store: written and migrated under a temporary name, then linked to `file` (a link never
 * replaces: when another process made it first, ours is dropped and theirs is used).
 */
function createStore(file: string, migrate: (db: Database.Database) => void): void {
  removeDeadCreations(file);
  const temp = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    closeSync(openSync(temp, 'wx', PRIVATE_FILE_MODE));
    const db = new Database(temp);
    try {
      db.pragma('journal_mode = WAL');
      migrate(db);
    } finally {
      db.close();
    }
    linkSync(temp, file);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
  } finally {
    for (const p of [temp, ...SCRATCH.map((s) => temp + s)]) rmSync(p, { force: true });
  }
}

/** What a creation killed midway left beside the store (its process gone). */
function removeDeadCreations(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.new-`;
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(prefix)
      ? /^(\d+)-[0-9a-f]{8}(-wal|-shm)?$/.exec(name.slice(prefix.length))?.[1]
      : undefined;
    if (pid !== undefined && !processAlive({ pid: Number(pid), start: '' }))
      rmSync(path.join(dir, name), { force: true });
  }
}
