import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawStoreAt } from '../../test/helpers/store-at-version.js';
import { openStore } from './db.js';

const DEMO = '/opt/skillopt-sleep/templates/demo/claude/projects/-home-dev-acme-web/s1.jsonl';
const REAL = '/home/me/.claude/projects/-home-me-web/s2.jsonl';

/** A store as version 6 left it, holding one session harvested by an old `run --demo` and one real. */
function storeAtVersion6(file: string): void {
  const raw = rawStoreAt(file, 6);
  const session = raw.prepare(
    `INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version,
       n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched, source_path, harvested_at)
     VALUES (?, 'claude', ?, ?, ?, '', '', '', 1, 0, '[]', '[]', '[]', ?, 0)`,
  );
  const cursor = raw.prepare(
    `INSERT INTO source_files (path, source, size, mtime_ms, inode, parsed_offset, updated_at)
     VALUES (?, 'claude', 1, 1, 1, 1, 0)`,
  );
  for (const [key, root, source] of [
    ['claude:demo', '/state/demo/acme-web', DEMO],
    ['claude:real', '/home/me/web', REAL],
  ] as const) {
    session.run(key, key, root, root, source);
    raw
      .prepare(
        `INSERT INTO turns (session_key, seq, role, text, ts, tool_names, tool_errors, interrupted) VALUES (?, 0, 'user', 'x', 0, '[]', 0, 0)`,
      )
      .run(key);
    cursor.run(source);
  }
  raw.close();
}

describe('migration 7', () => {
  it("forgets the sessions an old run --demo put into the user's store, and keeps the real ones", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-db-')), 'store.sqlite');
    storeAtVersion6(file);
    const db = openStore(file);
    const keys = (db.prepare('SELECT key FROM sessions').all() as Array<{ key: string }>).map((r) => r.key);
    expect(keys).toEqual(['claude:real']);
    expect(db.prepare('SELECT session_key FROM turns').all()).toEqual([{ session_key: 'claude:real' }]);
    expect(db.prepare('SELECT path FROM source_files').all()).toEqual([{ path: REAL }]);
    db.close();
  });
});
