import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolAction } from '../src/core/session.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore, schemaVersion, type Db } from '../src/store/db.js';
import { MIGRATIONS } from '../src/store/migrations.js';
import { rawStoreAt } from './helpers/store-at-version.js';
import { parseActions, querySessions } from '../src/store/sessions-repo.js';

const PROJECT = '/work/shop';
const SESSION = 'a0000000-0000-4000-8000-000000000001';
// Built by concatenation, so this file holds no literal secret.
const TOKEN = ['gh', 'p_', 'Q7x', 'K2m9'.repeat(8), 'Zr1'].join('');
const DB_PASSWORD = ['pos', 'tgres://shop:', 'Tr0ub4dor', '-x9Q@db.internal/shop'].join('');

/** A Claude Code transcript: a prompt, then one API message running a command and editing a file. */
function transcript(home: string): string {
  const dir = path.join(home, '.claude', 'projects', '-work-shop');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${SESSION}.jsonl`);
  const base = { sessionId: SESSION, cwd: PROJECT, isSidechain: false, userType: 'external' };
  const records = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      timestamp: '2026-05-04T10:00:00.000Z',
      message: { role: 'user', content: 'Deploy the shop' },
    },
    ...[
      {
        type: 'tool_use',
        id: 't1',
        name: 'Bash',
        input: { command: `git push https://${TOKEN}@github.com/acme/shop.git main` },
      },
      {
        type: 'tool_use',
        id: 't2',
        name: 'Edit',
        input: {
          file_path: '/work/shop/.env',
          old_string: 'DATABASE_URL=',
          new_string: `DATABASE_URL=${DB_PASSWORD}`,
        },
      },
    ].map((block, i) => ({
      ...base,
      type: 'assistant',
      uuid: `a${i}`,
      timestamp: '2026-05-04T10:00:01.000Z',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-x', content: [block] },
    })),
  ];
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

function runHarvest(db: Db, home: string) {
  return harvest({
    db,
    ctx: { home, env: {} },
    clock: fixedClock(Date.UTC(2026, 4, 5)),
    logger: silentLogger,
    sources: ['claude'],
  });
}

const stored = (db: Db) =>
  querySessions(db, { project: PROJECT, scope: 'invoked', sinceMs: null, limit: 10 });

describe('harvested actions in the store', () => {
  it('stores each assistant turn’s actions redacted, and reads them back', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'sos-actions-'));
    transcript(home);
    const db = openStore(':memory:');
    await runHarvest(db, home);
    const [session] = stored(db);
    const actions = session?.turns.flatMap((t) => t.actions) ?? [];
    expect(session?.turns.map((t) => t.actions.length)).toEqual([0, 2]);
    expect(actions.map((a) => [a.kind, a.tool])).toEqual([
      ['run', 'Bash'],
      ['edit', 'Edit'],
    ]);
    const text = JSON.stringify(actions);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('Tr0ub4dor');
    expect(actions[0]?.target).toMatch(/^git push https:\/\/\[REDACTED:github-token\]@github\.com/);
    expect(actions[1]).toMatchObject({ target: '/work/shop/.env', removed: 'DATABASE_URL=' });
    expect(actions[1]?.added).toContain('[REDACTED');
  });

  it('gives sessions of a store from before actions their actions on the next harvest', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'sos-actions-'));
    const file = transcript(home);
    const storeFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-actions-store-')), 'store.sqlite');
    writeVersion4Store(storeFile, file);

    const db = openStore(storeFile);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
    // The old turns read as having no actions until the transcript is read again.
    expect(stored(db)[0]?.turns.map((t) => t.actions)).toEqual([[], []]);
    const summary = await runHarvest(db, home);
    // The file did not change, yet its cursor is gone, so it is read whole and the session replaced.
    expect(summary.bySource.claude).toMatchObject({ files: 1, parsed: 1, new: 0, updated: 1 });
    const sessions = stored(db);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.turns.map((t) => [t.seq, t.role, t.actions.map((a) => a.kind)])).toEqual([
      [0, 'user', []],
      [1, 'assistant', ['run', 'edit']],
    ]);
    const counts = db.prepare('SELECT n_user_turns AS u, n_assistant_turns AS a FROM sessions').get();
    expect(counts).toEqual({ u: 1, a: 1 });
    // And the next harvest has nothing to do again.
    expect((await runHarvest(db, home)).filesParsed).toBe(0);
  });

  it('reads malformed stored actions as none', () => {
    expect(parseActions('not json')).toEqual([]);
    expect(parseActions('{"kind":"run"}')).toEqual([]);
    const good: ToolAction = { kind: 'read', tool: 'Read', target: '/a', added: '', removed: '' };
    expect(
      parseActions(JSON.stringify([good, { kind: 'fly', tool: 'x', target: '', added: '', removed: '' }, 3])),
    ).toEqual([good]);
  });
});

/** What a store at schema 4 holds after harvesting the transcript: turns without actions, a cursor. */
function writeVersion4Store(storeFile: string, transcriptFile: string): void {
  const raw = rawStoreAt(storeFile, 4);
  const key = `claude:${SESSION}`;
  raw
    .prepare(
      `INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version, started_at,
         ended_at, n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched, source_path, harvested_at)
       VALUES (?, 'claude', ?, ?, ?, '', 'claude-x', '', 1, 2, 1, 1, '["Bash","Edit"]', '[]', '[]', ?, 3)`,
    )
    .run(key, SESSION, PROJECT, PROJECT, transcriptFile);
  const turn = raw.prepare(
    `INSERT INTO turns (session_key, seq, role, text, ts, tool_names, tool_errors, interrupted, offset)
     VALUES (?, ?, ?, ?, NULL, ?, 0, 0, 0)`,
  );
  turn.run(key, 0, 'user', 'Deploy the shop', '[]');
  turn.run(key, 1, 'assistant', '', '["Bash","Edit"]');
  const st = statSync(transcriptFile);
  raw
    .prepare(
      `INSERT INTO source_files (path, source, size, mtime_ms, inode, parsed_offset, bad_lines, updated_at)
       VALUES (?, 'claude', ?, ?, ?, ?, 0, 3)`,
    )
    .run(transcriptFile, st.size, Math.trunc(st.mtimeMs), st.ino, st.size);
  raw.close();
}
