/**
 * The SQLite stores the OpenCode and Goose writers fill: one open database per path, each session written in
 * one transaction, closed by `closeAgentStores()` at the end of the corpus.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const open = new Map<string, Database.Database>();

export function agentStore(file: string, schema: string): Database.Database {
  let db = open.get(file);
  if (db === undefined) {
    mkdirSync(path.dirname(file), { recursive: true });
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.exec(schema);
    open.set(file, db);
  }
  return db;
}

export function closeAgentStores(): void {
  for (const db of open.values()) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  open.clear();
}
