/**
 * A store as migration 1 left it (with rows in that schema) opened by the current code: every later
 * migration applies, the rows survive as those migrations intend, and the schema ends up the same as
 * a freshly created store's.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openStore, schemaVersion, type Db } from './db.js';

const file = (): string => path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-migrate-')), 'store.sqlite');

/** A version-1 store holding one of each kind of row. */
function versionOneStore(at: string): void {
  const db = new Database(at);
  try {
    const first = MIGRATIONS[0];
    if (first?.version !== 1) throw new Error('migration 1 is not first');
    db.exec(first.sql);
    db.pragma('user_version = 1');
    db.exec(`
      INSERT INTO source_files VALUES ('/h/.claude/projects/p/s1.jsonl', 'claude', 10, 1, 2, 10, 0, 5);
      INSERT INTO sessions VALUES ('claude:s1', 'claude', 's1', '/work/p', '/work/p', 'main', 'm', '1',
        1, 2, 1, 1, '[]', '[]', '[]', '/h/.claude/projects/p/s1.jsonl', 5);
      INSERT INTO turns VALUES ('claude:s1', 0, 'user', 'add zod', 1, '[]', 0, 0);
      INSERT INTO nights (id, project, started_at, finished_at, status, backend, proposal_id)
        VALUES (7, '/work/p', 100, 200, 'completed', 'mock', '20260101-000000-1');
      INSERT INTO replays VALUES (7, 'baseline', 't1', 'val', 'h', 0, 'r', 1, 1, '', 3, 1.5);
      INSERT INTO proposals VALUES ('20260101-000000-1', '/work/p', 7, '/work/p/.skillopt-sleep/proposals/x',
        'staged', 200, NULL, '[]');
      INSERT INTO rejected_edits VALUES ('/work/p', 'skill', 'add', 'use npm', 'Use npm', 7, -0.5, 1, 200);
    `);
  } finally {
    db.close();
  }
}

/** The schema as sqlite_master holds it, whitespace normalised. */
function schema(db: Db): Array<{ type: string; name: string; sql: string }> {
  const rows = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name`)
    .all() as Array<{ type: string; name: string; sql: string }>;
  return rows.map((r) => ({ ...r, sql: r.sql.replace(/\s+/g, ' ').replace(/"/g, '').trim() }));
}

describe('a store from migration 1 opened by the current code', () => {
  it('applies every later migration, keeps its rows as they intend, and ends with the fresh schema', () => {
    const old = file();
    versionOneStore(old);
    const db = openStore(old);
    const fresh = openStore(':memory:');
    try {
      expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
      expect(schema(db)).toEqual(schema(fresh));

      // Migration 5 forgets every file cursor (the next harvest rereads them whole); sessions stay.
      expect(db.prepare('SELECT count(*) AS n FROM source_files').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT key, project_root FROM sessions').all()).toEqual([
        { key: 'claude:s1', project_root: '/work/p' },
      ]);
      // Columns added later take their defaults.
      expect(db.prepare('SELECT text, offset, actions FROM turns').all()).toEqual([
        { text: 'add zod', offset: 0, actions: '[]' },
      ]);
      expect(db.prepare('SELECT content, reason FROM rejected_edits').all()).toEqual([
        { content: 'Use npm', reason: '' },
      ]);
      // Migration 9 rebuilt nights: same id and values, no process recorded, the references intact.
      expect(
        db.prepare('SELECT id, status, proposal_id, pid, process_start, cost_usd FROM nights').all(),
      ).toEqual([
        {
          id: 7,
          status: 'completed',
          proposal_id: '20260101-000000-1',
          pid: null,
          process_start: '',
          cost_usd: 0,
        },
      ]);
      expect(db.prepare('SELECT night_id, status FROM proposals').all()).toEqual([
        { night_id: 7, status: 'staged' },
      ]);
      expect(db.prepare('SELECT night_id, tokens FROM replays').all()).toEqual([{ night_id: 7, tokens: 3 }]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      // The AUTOINCREMENT counter survived the rebuild: the next night never reuses an id.
      const next = db
        .prepare(
          `INSERT INTO nights (project, started_at, status, backend) VALUES ('/work/p', 300, 'running', 'mock')`,
        )
        .run();
      expect(Number(next.lastInsertRowid)).toBe(8);
      expect(() => db.prepare(`UPDATE nights SET status = 'interrupted' WHERE id = 8`).run()).not.toThrow();
    } finally {
      db.close();
      fresh.close();
    }
  });
});
