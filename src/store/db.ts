/** Opens the SQLite store (WAL) and brings its schema up to date. */
import Database from 'better-sqlite3';
import { IoError, errorMessage } from '../core/errors.js';
import { keepPrivate } from '../core/io/private-mode.js';
import { MIGRATIONS } from './migrations.js';
import { prepareStoreFile } from './store-file.js';

export type Db = Database.Database;

export function openStore(file: string): Db {
  if (file !== ':memory:') {
    // Created whole, or refused when empty or read-only, before SQLite touches it (`store-file.ts`).
    prepareStoreFile(file, migrate);
    for (const p of [file, `${file}-wal`, `${file}-shm`]) keepPrivate(p);
  }
  let db: Db;
  try {
    db = new Database(file);
  } catch (err) {
    throw new IoError(`cannot open store ${file}: ${errorMessage(err)}`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    if (file !== ':memory:') for (const side of ['-wal', '-shm']) keepPrivate(file + side);
  } catch (err) {
    db.close();
    throw unreadableStore(file, err);
  }
  return db;
}

/**
 * A store SQLite cannot read is never replaced or repaired here (it may be the user's only history):
 * the error says how to move it aside so the next command starts an empty one.
 */
function unreadableStore(file: string, err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') return err;
  return new IoError(
    `store ${file} is not a readable SQLite database (${errorMessage(err)}); it was left as it is. Move it aside (mv '${file}' '${file}.broken') and run again to start a new store`,
    'store_unreadable',
  );
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Apply every migration newer than the store's user_version, each in its own transaction. */
export function migrate(db: Db): void {
  const current = schemaVersion(db);
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new IoError(
      `the store was written by a newer skillopt-sleep (schema ${current} > ${latest}); upgrade the tool`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    // A table rebuild must not cascade its DROP into the tables that reference it (SQLite's documented
    // procedure); the references are checked before the version is committed.
    if (m.rebuildsTable) db.pragma('foreign_keys = OFF');
    try {
      // IMMEDIATE takes the write lock before reading the version again: two processes opening a new
      // store at once (two scheduled nights, the daemon and a night) apply each migration exactly once.
      db.transaction(() => {
        if (schemaVersion(db) >= m.version) return;
        const broken = (): number =>
          m.rebuildsTable ? (db.pragma('foreign_key_check') as unknown[]).length : 0;
        const before = broken();
        db.exec(m.sql);
        if (broken() > before)
          throw new IoError(`migration ${m.version} (${m.name}) would break the store's references`);
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } finally {
      if (m.rebuildsTable) db.pragma('foreign_keys = ON');
    }
  }
}
