/** Migration 16 moves the mined results into rowid tables and keeps their rows and constraints. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openStore, schemaVersion } from './db.js';
import { rawStoreAt } from '../../test/helpers/store-at-version.js';

function versionFifteenStore(at: string): void {
  const db = rawStoreAt(at, 15);
  try {
    db.exec(`
      INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version,
        started_at, ended_at, n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched,
        source_path, harvested_at)
      VALUES ('claude:s1', 'claude', 's1', '/work/p', '/work/p', '', '', '', 1, 2, 1, 1, '[]', '[]', '[]', '/h/s1.jsonl', 5);
      INSERT INTO session_features VALUES ('claude:s1', 'v3', 5, '{"words":["zod"]}');
      INSERT INTO mined_projects VALUES ('/work/p', 'digest', x'0102', x'03');
    `);
  } finally {
    db.close();
  }
}

describe('migration 16', () => {
  it('keeps features and mined results, without WITHOUT ROWID, and features still go with their session', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-m16-')), 'store.sqlite');
    versionFifteenStore(file);
    const db = openStore(file);
    try {
      expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
      const sql = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE name IN ('session_features', 'mined_projects')`)
        .all() as Array<{ name: string; sql: string }>;
      expect(sql.map((r) => r.name).sort()).toEqual(['mined_projects', 'session_features']);
      for (const r of sql) expect(r.sql).not.toMatch(/WITHOUT ROWID/i);
      expect(db.prepare('SELECT * FROM session_features').all()).toEqual([
        { session_key: 'claude:s1', version: 'v3', harvested_at: 5, features: '{"words":["zod"]}' },
      ]);
      expect(db.prepare('SELECT * FROM mined_projects').all()).toEqual([
        { project: '/work/p', input_digest: 'digest', mined: Buffer.from([1, 2]), texts: Buffer.from([3]) },
      ]);
      expect(() =>
        db.prepare(`INSERT INTO session_features VALUES ('claude:none', 'v3', 1, '{}')`).run(),
      ).toThrow(/FOREIGN KEY/);
      db.prepare(`DELETE FROM sessions WHERE key = 'claude:s1'`).run();
      expect(db.prepare('SELECT count(*) AS n FROM session_features').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
