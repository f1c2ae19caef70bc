import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { IoError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';
import { openStore, schemaVersion } from './db.js';
import { finishNight, nightsForProject, startNight } from './nights-repo.js';
import { recordRejectedEdit, rejectedEdits } from './learning-repo.js';

describe('store', () => {
  it('creates the schema in WAL mode at the latest version', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-')), 'store.sqlite');
    const db = openStore(file);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]
    ).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining(['sessions', 'turns', 'tasks', 'nights', 'replays', 'proposals']),
    );
    db.close();
    // Reopening an up-to-date store is a no-op.
    expect(schemaVersion(openStore(file))).toBe(MIGRATIONS.at(-1)?.version);
  });

  it('refuses a file that is not a database, naming it and leaving it as it was', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-')), 'store.sqlite');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const before = readFileSync(file);
    let caught: unknown;
    try {
      openStore(file);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(IoError);
    expect(caught).toMatchObject({ code: 'store_unreadable', exitCode: 1 });
    expect((caught as Error).message).toContain(file);
    expect((caught as Error).message).toContain(`mv '${file}' '${file}.broken'`);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a store written by a newer version', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-')), 'store.sqlite');
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openStore(file)).toThrow(/newer skillopt-sleep/);
  });

  it('keeps per-project night history and merges repeated rejected edits', () => {
    const db = openStore(':memory:');
    const a = startNight(db, '/p', 'mock', 1);
    finishNight(
      db,
      a,
      {
        nSessions: 1,
        nTasks: 2,
        baseline: 0.2,
        candidate: 0.5,
        accepted: true,
        gateAction: 'accept_new_best',
        stopped: '',
        calls: 3,
        tokens: 0,
      },
      2,
    );
    startNight(db, '/other', 'mock', 3);
    expect(nightsForProject(db, '/p', 10).map((n) => n.id)).toEqual([a]);
    recordRejectedEdit(db, '/p', { target: 'skill', op: 'add', content: 'Use  X' }, -0.1, a, 5);
    recordRejectedEdit(db, '/p', { target: 'skill', op: 'add', content: 'use x' }, -0.3, a, 6);
    const rows = rejectedEdits(db, '/p');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ times: 2, delta: -0.3 });
  });
});
