/** A store as an older release left it, for tests of the migrations after it. */
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/migrations.js';

/** Opens `file` raw (not through `openStore`) with migrations 1…`version` applied; the caller closes it. */
export function rawStoreAt(file: string, version: number): Database.Database {
  const raw = new Database(file);
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) raw.exec(m.sql);
  raw.pragma(`user_version = ${version}`);
  return raw;
}
