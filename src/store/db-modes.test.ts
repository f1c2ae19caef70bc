import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from './db.js';
import { startNight } from './nights-repo.js';

const modeOf = (p: string): number => statSync(p).mode & 0o777;

describe('store file modes', () => {
  it('a new store is 0700 / 0600, WAL and SHM included, whatever the umask', () => {
    const home = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-modes-')), 'state');
    const file = path.join(home, 'store.sqlite');
    const db = openStore(file);
    startNight(db, '/p', 'mock', 1); // a write, so the WAL holds something
    expect(modeOf(home)).toBe(0o700);
    for (const p of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(p)).toBe(0o600);
    db.close();
  });

  it('an existing world-readable store (0755 folder, 0644 files) is tightened when opened', () => {
    const home = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-modes-')), 'state');
    mkdirSync(home);
    const file = path.join(home, 'store.sqlite');
    // An older version's store, left with its WAL files (opened and not checkpointed).
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    for (const p of [file, `${file}-wal`, `${file}-shm`]) chmodSync(p, 0o644);
    chmodSync(home, 0o755);
    const db = openStore(file);
    expect(modeOf(home)).toBe(0o700);
    for (const p of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(p)).toBe(0o600);
    db.close();
    old.close();
  });
});
