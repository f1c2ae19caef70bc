import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { IoError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';
import { openStore, schemaVersion } from './db.js';
import { rawStoreAt } from '../../test/helpers/store-at-version.js';
import {
  finishNight,
  insertReplays,
  markInterruptedNights,
  nightsForProject,
  startNight,
} from './nights-repo.js';
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

  it('marks a running night whose process is gone interrupted, and leaves a live one running', () => {
    const db = openStore(':memory:');
    const live = startNight(db, '/p', 'mock', 1);
    const killed = startNight(db, '/p', 'mock', 2);
    const reused = startNight(db, '/p', 'mock', 3);
    db.prepare('UPDATE nights SET pid = ? WHERE id = ?').run(2 ** 22 + 7, killed);
    // A live pid with another start time is another process that reused the pid.
    if (process.platform === 'linux')
      db.prepare("UPDATE nights SET process_start = '1' WHERE id = ?").run(reused);
    const legacyOld = startNight(db, '/p', 'mock', 0);
    const legacyNew = startNight(db, '/p', 'mock', 10 * 3_600_000);
    db.prepare('UPDATE nights SET pid = NULL WHERE id IN (?, ?)').run(legacyOld, legacyNew);
    expect(markInterruptedNights(db, 25 * 3_600_000)).toBe(process.platform === 'linux' ? 3 : 2);
    const status = new Map(nightsForProject(db, '/p', 10).map((n) => [n.id, n]));
    expect(status.get(live)?.status).toBe('running');
    expect(status.get(killed)).toMatchObject({ status: 'interrupted', finished_at: null });
    expect(status.get(killed)?.error).toMatch(/process \(pid \d+\) ended before the night finished/);
    if (process.platform === 'linux') expect(status.get(reused)?.status).toBe('interrupted');
    expect(status.get(legacyOld)?.status).toBe('interrupted');
    expect(status.get(legacyNew)?.status).toBe('running');
    expect(status.get(live)?.pid).toBe(process.pid);
    db.close();
  });

  it('migration 9 keeps every night, its replays, proposals and the id counter', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-')), 'store.sqlite');
    const raw = rawStoreAt(file, 8);
    raw.pragma('foreign_keys = ON');
    const insert = raw.prepare(
      "INSERT INTO nights (project, started_at, status, backend, calls) VALUES ('/p', ?, ?, 'mock', ?)",
    );
    insert.run(1, 'completed', 7);
    insert.run(2, 'running', 0);
    insert.run(3, 'failed', 0);
    raw.prepare('DELETE FROM nights WHERE id = 3').run();
    raw
      .prepare(
        `INSERT INTO replays (night_id, phase, task_id, split, doc_hash, sample, response, hard, soft, rationale, tokens, latency_ms)
         VALUES (1, 'baseline_val', 't', 'val', 'h', 0, 'r', 1, 1, '', 0, 0)`,
      )
      .run();
    raw
      .prepare(
        "INSERT INTO proposals (id, project, night_id, dir, status, created_at, targets) VALUES ('x', '/p', 1, '/d', 'staged', 1, '[]')",
      )
      .run();
    raw.close();
    const db = openStore(file);
    expect(nightsForProject(db, '/p', 10).map((n) => [n.id, n.status, n.calls])).toEqual([
      [2, 'running', 0],
      [1, 'completed', 7],
    ]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM replays WHERE night_id = 1').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT night_id FROM proposals').get()).toEqual({ night_id: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // A deleted night's id is never reused.
    expect(startNight(db, '/p', 'mock', 4)).toBe(4);
    insertReplays(db, 4, []);
    // The references point at the new table: a proposal keeps its night, replays go with theirs.
    expect(() => db.prepare('DELETE FROM nights WHERE id = 1').run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM proposals').run();
    db.prepare('DELETE FROM nights WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM replays').get()).toEqual({ n: 0 });
    db.close();
  });
});
