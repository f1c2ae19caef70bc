import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { HarvestedSession } from '../core/session.js';
import { openStore, type Db } from './db.js';
import {
  applyRetention,
  forgetSessions,
  selectForgottenKeys,
  selectSessionKeys,
  vacuumStore,
} from './forget-repo.js';
import { recordRejectedEdit, savePendingEdits, upsertTasks } from './learning-repo.js';
import { insertReplays, startNight } from './nights-repo.js';
import { sqliteResponseCache } from './response-cache-repo.js';
import { sqliteSessionLabels } from './session-labels-repo.js';
import { sessionFeaturesStore } from './session-features-repo.js';
import { sessionWriter } from './session-writer.js';
import { rawStoreAt } from '../../test/helpers/store-at-version.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1);

function session(id: string, marker: string, endedAt: number | null, cwd = '/work/app'): HarvestedSession {
  return {
    source: 'claude',
    sessionId: id,
    cwd,
    branch: 'main',
    model: 'm',
    startedAt: endedAt === null ? null : endedAt - 1000,
    endedAt,
    turns: [
      {
        seq: 0,
        role: 'user',
        text: `please fix the build ${marker}`,
        ts: null,
        toolNames: [],
        actions: [],
        toolErrors: 0,
        interrupted: false,
        offset: 0,
      },
      {
        seq: 1,
        role: 'assistant',
        text: `done ${marker}`,
        ts: null,
        toolNames: [],
        actions: [],
        toolErrors: 0,
        interrupted: false,
        offset: 10,
      },
    ],
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: `/home/u/.claude/projects/app/${id}.jsonl`,
    sourceVersion: '1',
  };
}

const A = 'claude:aaa';
const B = 'claude:bbb';

/** Every derived row of one session, each carrying its marker; `shared` rows come from both. */
function derive(db: Db, key: string, marker: string, nightId: number): void {
  upsertTasks(
    db,
    [
      {
        id: `task_${marker}`,
        project: '/work/app',
        intent: `fix the build ${marker}`,
        occurrences: 1,
        firstSeen: null,
        lastSeen: null,
        checks: [{ op: 'contains', arg: 'pnpm', because: `use pnpm ${marker}` }],
        outcomes: {},
        members: [key],
      },
    ],
    NOW,
  );
  insertReplays(db, nightId, [
    {
      phase: 'baseline_val',
      taskId: `inst_${marker}`,
      split: 'val',
      docHash: 'h',
      sample: 0,
      response: `answer ${marker}`,
      hard: 1,
      soft: 1,
      rationale: '',
      tokens: 1,
      latencyMs: 1,
      sessions: [key],
    },
  ]);
  const cache = sqliteResponseCache(db, () => NOW);
  cache.put(
    `key_${marker}`,
    { text: `reply ${marker}`, inputTokens: 1, outputTokens: 1 },
    {
      role: 'target',
      provider: 'openai',
      model: 'm',
      sessions: [key],
    },
  );
  sqliteSessionLabels(db, () => NOW).put([{ sessionKey: key, textHash: 'h', label: `label ${marker}` }]);
  sessionFeaturesStore(db, 'v').save([[key, { prompt: `features ${marker}` }]]);
  recordRejectedEdit(
    db,
    '/work/app',
    { target: 'skill', op: 'add', content: `always ${marker}` },
    -0.1,
    nightId,
    NOW,
    [key],
  );
  // A project's pending edits are replaced as a whole: one project per session here.
  savePendingEdits(
    db,
    `/work/${marker}`,
    [{ target: 'skill', op: 'add', content: `maybe ${marker}`, anchor: '', rationale: marker }],
    NOW,
    [key],
  );
}

function store(file = ':memory:'): Db {
  const db = openStore(file);
  const writer = sessionWriter(db);
  writer.write(session('aaa', 'MARKER_A', NOW - 40 * DAY), '/work/app', null, NOW);
  writer.write(session('bbb', 'MARKER_B', NOW - 10 * DAY, '/work/app/sub'), '/work/app/sub', null, NOW);
  db.prepare(
    `INSERT INTO source_files (path, source, size, mtime_ms, inode, parsed_offset, bad_lines, updated_at)
     VALUES (?, 'claude', 1, 1, 1, 1, 0, 1), (?, 'claude', 1, 1, 1, 1, 0, 1)`,
  ).run(session('aaa', '', 0).sourcePath, session('bbb', '', 0).sourcePath);
  const night = startNight(db, '/work/app', 'openai', NOW);
  derive(db, A, 'MARKER_A', night);
  derive(db, B, 'MARKER_B', night);
  // A reply cached for A and reused (a hit) for B's request: it carries both.
  const cache = sqliteResponseCache(db, () => NOW);
  cache.put(
    'shared',
    { text: 'shared reply', inputTokens: 1, outputTokens: 1 },
    {
      role: 'optimizer',
      provider: 'openai',
      model: 'm',
      sessions: [A],
    },
  );
  cache.get('shared', [B]);
  return db;
}

const TABLES = [
  'sessions',
  'turns',
  'tasks',
  'replays',
  'response_cache',
  'session_labels',
  'session_features',
  'rejected_edits',
  'pending_edits',
  'session_traces',
];

/** Every row of every table that holds text, as one string per table. */
function dump(db: Db): Record<string, string> {
  return Object.fromEntries(TABLES.map((t) => [t, JSON.stringify(db.prepare(`SELECT * FROM ${t}`).all())]));
}

const rowCount = (db: Db, table: string): number =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('forgetSessions', () => {
  it('removes every row of the forgotten session and keeps every row of the other', () => {
    const db = store();
    const before = dump(db);
    const texts = TABLES.filter((t) => t !== 'session_traces' && t !== 'sessions');
    for (const t of texts) {
      expect(before[t], t).toContain('MARKER_A');
      expect(before[t], t).toContain('MARKER_B');
    }
    const counts = forgetSessions(db, [A], { now: NOW, tombstone: true });
    expect(counts).toMatchObject({
      sessions: 1,
      turns: 2,
      labels: 1,
      features: 1,
      tasks: 1,
      replays: 1,
      // Its own reply and the shared one.
      cached_replies: 2,
      rejected_edits: 1,
      pending_edits: 1,
      tombstones: 1,
    });
    const after = dump(db);
    for (const t of TABLES) {
      expect(after[t], t).not.toContain('MARKER_A');
      expect(after[t], t).not.toContain(A);
    }
    for (const t of texts) expect(after[t], t).toContain('MARKER_B');
    expect(after.sessions).toContain(B);
    expect(rowCount(db, 'response_cache')).toBe(1);
    // The shared reply's trace to B went with it.
    expect(after.session_traces).not.toContain('"shared"');
    expect(db.prepare('SELECT key FROM forgotten_sessions').all()).toEqual([{ key: A }]);
    // File cursors stay: an unchanged file is not read again.
    expect(rowCount(db, 'source_files')).toBe(2);
  });

  it('a dry run counts the same and changes nothing', () => {
    const db = store();
    const before = dump(db);
    const dry = forgetSessions(db, [A], { now: NOW, tombstone: true, dryRun: true });
    expect(dump(db)).toEqual(before);
    expect(rowCount(db, 'forgotten_sessions')).toBe(0);
    expect(forgetSessions(db, [A], { now: NOW, tombstone: true })).toEqual(dry);
  });

  it('reharvest lifts the tombstone and drops the cursor of the file the session came from', () => {
    const db = store();
    forgetSessions(db, [A], { now: NOW, tombstone: true });
    const lifted = forgetSessions(db, selectForgottenKeys(db, { sessions: ['aaa'] }), {
      now: NOW,
      tombstone: true,
      reharvest: true,
    });
    expect(lifted).toMatchObject({ tombstones_lifted: 1, cursors: 1, sessions: 0 });
    expect(rowCount(db, 'forgotten_sessions')).toBe(0);
    expect(db.prepare('SELECT path FROM source_files').all()).toEqual([
      { path: session('bbb', '', 0).sourcePath },
    ]);
  });

  it('sweeps rows a racing night traced to an already forgotten session', () => {
    const db = store();
    forgetSessions(db, [A], { now: NOW, tombstone: true });
    const night = startNight(db, '/work/app', 'openai', NOW);
    derive(db, A, 'MARKER_A', night);
    forgetSessions(db, [], { now: NOW, tombstone: true });
    expect(JSON.stringify(dump(db))).not.toContain('MARKER_A');
  });
});

describe('selectSessionKeys', () => {
  it('combines the filters with AND; a project is the folder and below', () => {
    const db = store();
    expect(selectSessionKeys(db, { all: true })).toEqual([A, B]);
    expect(selectSessionKeys(db, { project: '/work/app/sub' })).toEqual([B]);
    expect(selectSessionKeys(db, { project: '/work/ap' })).toEqual([]);
    expect(selectSessionKeys(db, { project: '/work/app' })).toEqual([A, B]);
    expect(selectSessionKeys(db, { sessions: ['aaa', B] })).toEqual([A, B]);
    expect(selectSessionKeys(db, { source: 'codex' })).toEqual([]);
    expect(selectSessionKeys(db, { beforeMs: NOW - 20 * DAY })).toEqual([A]);
    expect(selectSessionKeys(db, { beforeMs: NOW - 20 * DAY, project: '/work/app/sub' })).toEqual([]);
  });
});

describe('applyRetention', () => {
  it('drops only sessions older than the retention, and vacuums the bytes out of the file', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-forget-')), 'store.sqlite');
    const db = store(file);
    const counts = applyRetention(db, 30, NOW);
    expect(counts).toMatchObject({ sessions: 1, tombstones: 0 });
    expect(selectSessionKeys(db, { all: true })).toEqual([B]);
    expect(rowCount(db, 'session_features')).toBe(1);
    expect(rowCount(db, 'forgotten_sessions')).toBe(0);
    expect(applyRetention(db, 30, NOW).sessions).toBe(0);
    db.close();
    for (const f of [file, `${file}-wal`]) {
      let bytes = '';
      try {
        bytes = readFileSync(f).toString('latin1');
      } catch {
        // No WAL left at all.
      }
      expect(bytes, f).not.toContain('MARKER_A');
    }
    expect(readFileSync(file).toString('latin1')).toContain('MARKER_B');
  });

  it('vacuumStore reports a store another process is writing to, without throwing', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-forget-')), 'store.sqlite');
    const db = store(file);
    db.pragma('busy_timeout = 20');
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(vacuumStore(db)).toEqual({ vacuumed: false, walEmptied: false });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(vacuumStore(db)).toEqual({ vacuumed: true, walEmptied: true });
    db.close();
  });

  it('vacuumStore empties the WAL', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-forget-')), 'store.sqlite');
    const db = store(file);
    expect(vacuumStore(db)).toEqual({ vacuumed: true, walEmptied: true });
    db.close();
  });
});

describe('rows derived before provenance was recorded', () => {
  it('are traced to no session by migration 11, so the first forget removes them and nothing newer', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-forget-')), 'store.sqlite');
    const raw = rawStoreAt(file, 10);
    raw.exec(`
      INSERT INTO tasks (id, project, intent, occurrences, checks, outcomes, updated_at)
        VALUES ('task_old', '/p', 'old intent', 1, '[]', '{}', 0);
      INSERT INTO nights (id, project, started_at, status, backend) VALUES (1, '/p', 0, 'completed', 'mock');
      INSERT INTO replays (night_id, phase, task_id, split, doc_hash, sample, response, hard, soft, rationale, tokens, latency_ms)
        VALUES (1, 'baseline_val', 'inst_old', 'val', 'h', 0, 'old answer', 1, 1, '', 1, 1);
      INSERT INTO response_cache (key, role, provider, model, text, input_tokens, output_tokens, created_at, last_used_at)
        VALUES ('old', 'target', 'openai', 'm', 'old reply', 1, 1, 0, 0);
      INSERT INTO rejected_edits (project, target, op, content_norm, content, delta, last_at)
        VALUES ('/p', 'skill', 'add', 'old rule', 'Old rule', -1, 0);
      INSERT INTO pending_edits (project, target, op, content, anchor, rationale, tries, updated_at)
        VALUES ('/p', 'skill', 'add', 'Old pending', '', '', 1, 0);
    `);
    raw.close();
    const db = openStore(file);
    sqliteResponseCache(db, () => NOW).put(
      'new',
      { text: 'new reply', inputTokens: 1, outputTokens: 1 },
      {
        role: 'target',
        provider: 'openai',
        model: 'm',
        sessions: [B],
      },
    );
    const dry = forgetSessions(db, [], { now: NOW, tombstone: true, dryRun: true });
    expect(dry).toMatchObject({
      tasks: 1,
      replays: 1,
      cached_replies: 1,
      rejected_edits: 1,
      pending_edits: 1,
    });
    forgetSessions(db, [], { now: NOW, tombstone: true });
    for (const t of ['tasks', 'replays', 'rejected_edits', 'pending_edits'])
      expect(rowCount(db, t), t).toBe(0);
    expect(db.prepare('SELECT key FROM response_cache').all()).toEqual([{ key: 'new' }]);
    expect(db.prepare('SELECT session_key FROM session_traces').all()).toEqual([{ session_key: B }]);
    db.close();
  });
});
