/**
 * Forgetting sessions: the sessions, their turns, labels and mined features, and every row derived from them (mined
 * tasks, replays, cached model replies, refused and pending edits: found through `session_traces`),
 * removed in one transaction; then `vacuumStore` rewrites the file so the bytes leave it and its WAL.
 */
import { sessionHash } from '../core/forgotten-lesson.js';
import type { Db } from './db.js';

export interface ForgetCounts {
  sessions: number;
  turns: number;
  labels: number;
  /** The miner's per-session features (`session_features`). */
  features: number;
  /** Projects' cached mining results (`mined_projects`): all go when any session does. */
  mined_projects: number;
  tasks: number;
  replays: number;
  cached_replies: number;
  rejected_edits: number;
  pending_edits: number;
  traces: number;
  /**
   * Forgotten-lesson records (`lessons forget`) whose evidence was all in these sessions: the lesson
   * cannot come back from them, and no trace of them is kept.
   */
  forgotten_lessons: number;
  /** Tombstones written (`forgotten_sessions`), so a later harvest does not store them again. */
  tombstones: number;
  /** `reharvest` only: tombstones lifted and file cursors dropped, so the next harvest reads them again. */
  tombstones_lifted: number;
  cursors: number;
}

export interface ForgetOptions {
  now: number;
  /**
   * Write tombstones (`forget`, and the exclusion rules' hook). Retention writes none: an expired
   * session's unchanged file is not read again, and if it changes it is expired again.
   */
  tombstone: boolean;
  /** Lift the tombstones of these keys and drop the cursors of their files: the next harvest reads them. */
  reharvest?: boolean;
  /** Count what would go and roll back: nothing changes. */
  dryRun?: boolean;
}

const emptyCounts = (): ForgetCounts => ({
  sessions: 0,
  turns: 0,
  labels: 0,
  features: 0,
  mined_projects: 0,
  tasks: 0,
  replays: 0,
  cached_replies: 0,
  rejected_edits: 0,
  pending_edits: 0,
  traces: 0,
  forgotten_lessons: 0,
  tombstones: 0,
  tombstones_lifted: 0,
  cursors: 0,
});

const IN_KEYS = 'IN (SELECT key FROM temp.forget_keys)';

/**
 * The trace of rows derived before provenance was recorded (migration 11): no one can tell which
 * session they came from, so every forget removes them (the next night derives them again).
 */
export const BEFORE_PROVENANCE = '*';

/** A ref's parts as columns: `IN` over a subquery is indexed, where a correlated `EXISTS` would not be. */
const refParts = (kind: string, n: number): string =>
  `SELECT ${Array.from({ length: n }, (_, i) => `json_extract(ref, '$[${i}]')`).join(', ')}
   FROM temp.forget_refs WHERE kind = '${kind}'`;

/** The deletions, in order; each step's `changes` is its count (a dry run rolls them all back). */
const STEPS: ReadonlyArray<[keyof ForgetCounts, string]> = [
  ['tasks', `DELETE FROM tasks WHERE id IN (SELECT ref FROM temp.forget_refs WHERE kind = 'task')`],
  ['replays', `DELETE FROM replays WHERE (night_id, task_id) IN (${refParts('replay', 2)})`],
  [
    'cached_replies',
    `DELETE FROM response_cache WHERE key IN (SELECT ref FROM temp.forget_refs WHERE kind = 'response_cache')`,
  ],
  [
    'rejected_edits',
    `DELETE FROM rejected_edits WHERE (project, target, op, content_norm) IN (${refParts('rejected_edit', 4)})`,
  ],
  [
    'pending_edits',
    `DELETE FROM pending_edits WHERE (project, target, op, content) IN (${refParts('pending_edit', 4)})`,
  ],
  ['labels', `DELETE FROM session_labels WHERE session_key ${IN_KEYS}`],
  ['features', `DELETE FROM session_features WHERE session_key ${IN_KEYS}`],
  // A cache of whole projects' mining: it may quote any session, and is cheap to derive again.
  [
    'mined_projects',
    `DELETE FROM mined_projects WHERE EXISTS (SELECT 1 FROM temp.forget_keys WHERE key <> '${BEFORE_PROVENANCE}')`,
  ],
  // Turns go explicitly (not by the foreign key's cascade) so they are counted.
  ['turns', `DELETE FROM turns WHERE session_key ${IN_KEYS}`],
  ['sessions', `DELETE FROM sessions WHERE key ${IN_KEYS}`],
  // A forgotten row's traces go with it, whichever session they name.
  [
    'traces',
    `DELETE FROM session_traces WHERE session_key ${IN_KEYS}
       OR (kind, ref) IN (SELECT kind, ref FROM temp.forget_refs)`,
  ],
];

/**
 * Forget `keys` (session keys, `<source>:<id>`) and everything derived from them, in one IMMEDIATE
 * transaction. Keys already tombstoned that still have traces (a night that was mining while an
 * earlier forget ran wrote them after it) are swept too, and so are the rows from before provenance
 * was recorded (`BEFORE_PROVENANCE`). This is the hook for the exclusion rules:
 * call it with the keys they select, `{ now, tombstone: true }`, then `vacuumStore`.
 */
export function forgetSessions(db: Db, keys: readonly string[], opts: ForgetOptions): ForgetCounts {
  const counts = emptyCounts();
  // Freed pages are zeroed too, so nothing is left even where a later VACUUM cannot run.
  db.pragma('secure_delete = ON');
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`CREATE TEMP TABLE forget_keys (key TEXT PRIMARY KEY)`);
    const addKey = db.prepare('INSERT OR IGNORE INTO temp.forget_keys (key) VALUES (?)');
    for (const key of keys) addKey.run(key);
    if (opts.reharvest) {
      counts.cursors = db
        .prepare(
          `DELETE FROM source_files WHERE path IN (
             SELECT source_path FROM sessions WHERE key ${IN_KEYS}
             UNION SELECT source_path FROM forgotten_sessions WHERE key ${IN_KEYS} AND source_path <> '')`,
        )
        .run().changes;
      counts.tombstones_lifted = db
        .prepare(`DELETE FROM forgotten_sessions WHERE key ${IN_KEYS}`)
        .run().changes;
    } else if (opts.tombstone) {
      counts.tombstones = db
        .prepare(
          `INSERT INTO forgotten_sessions (key, forgotten_at, source_path)
           SELECT key, ?, source_path FROM sessions WHERE key ${IN_KEYS}
           ON CONFLICT (key) DO UPDATE SET forgotten_at = excluded.forgotten_at, source_path = excluded.source_path`,
        )
        .run(opts.now).changes;
    }
    // After the tombstone step: a swept key keeps its tombstone even with `reharvest`.
    db.exec(`INSERT OR IGNORE INTO temp.forget_keys (key)
      SELECT DISTINCT session_key FROM session_traces WHERE session_key IN (SELECT key FROM forgotten_sessions)`);
    addKey.run(BEFORE_PROVENANCE);
    db.exec(`CREATE TEMP TABLE forget_refs AS
      SELECT DISTINCT kind, ref FROM session_traces WHERE session_key ${IN_KEYS}`);
    for (const [name, sql] of STEPS) counts[name] += db.prepare(sql).run().changes;
    counts.forgotten_lessons = forgetLessonEvidence(db);
    db.exec('DROP TABLE temp.forget_keys; DROP TABLE temp.forget_refs');
    db.exec(opts.dryRun ? 'ROLLBACK' : 'COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  } finally {
    // A failed run rolled back the temp tables' creation with everything else.
    db.exec('DROP TABLE IF EXISTS temp.forget_keys; DROP TABLE IF EXISTS temp.forget_refs');
  }
  return counts;
}

/**
 * The forgotten-lesson evidence said in the forgotten sessions (found by the hash of their keys), and
 * the records left with none; returns how many records went.
 */
function forgetLessonEvidence(db: Db): number {
  const keys = db.prepare('SELECT key FROM temp.forget_keys').pluck().all() as string[];
  const hashes = JSON.stringify(keys.filter((k) => k !== BEFORE_PROVENANCE).map(sessionHash));
  // Only records that lost evidence here go: a rejected rule of a tasks file never had any.
  const touched = db
    .prepare(
      `SELECT DISTINCT lesson_id FROM forgotten_lesson_evidence WHERE session_hash IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(hashes) as string[];
  db.prepare(
    `DELETE FROM forgotten_lesson_evidence WHERE session_hash IN (SELECT value FROM json_each(?))`,
  ).run(hashes);
  return db
    .prepare(
      `DELETE FROM forgotten_lessons
       WHERE lesson_id IN (SELECT value FROM json_each(?))
         AND lesson_id NOT IN (SELECT lesson_id FROM forgotten_lesson_evidence)`,
    )
    .run(JSON.stringify(touched)).changes;
}

/** True when any count of `counts` removed or changed something in the store. */
export const changedAnything = (counts: ForgetCounts): boolean => Object.values(counts).some((n) => n > 0);

export interface VacuumResult {
  /** VACUUM ran (false: another process was writing for longer than the busy timeout). */
  vacuumed: boolean;
  /** The write-ahead log was emptied (false: another process was reading the store; run again). */
  walEmptied: boolean;
}

const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/**
 * Rewrite the store so deleted text leaves the file: checkpoint, VACUUM (never inside a transaction),
 * then a TRUNCATE checkpoint copies the rewritten pages into the main file and empties the WAL. A busy
 * store is reported, not an error: the rows are gone (and their pages zeroed by `secure_delete`).
 */
export function vacuumStore(db: Db): VacuumResult {
  let vacuumed = true;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('VACUUM');
  } catch (err) {
    if (!isBusy(err)) throw err;
    vacuumed = false;
  }
  const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number }>;
  return { vacuumed, walEmptied: row === undefined || (row.busy === 0 && row.log <= 0) };
}

export interface SessionSelector {
  /** Sessions whose project_root is this folder (normal form) or below it. */
  project?: string;
  /** Session ids or full keys. */
  sessions?: readonly string[];
  source?: string;
  /** Sessions that ended (or, without an end, started) before this time; those without times are kept. */
  beforeMs?: number;
  all?: boolean;
}

/** The keys of the stored sessions every given filter selects (filters combine with AND). */
export function selectSessionKeys(db: Db, sel: SessionSelector): string[] {
  const project = sel.project ?? null;
  const rows = db
    .prepare(
      `SELECT key FROM sessions
       WHERE (@project IS NULL OR project_root = @project OR substr(project_root, 1, length(@prefix)) = @prefix)
         AND (@ids IS NULL OR key IN (SELECT value FROM json_each(@ids)) OR session_id IN (SELECT value FROM json_each(@ids)))
         AND (@source IS NULL OR source = @source)
         AND (@before IS NULL OR COALESCE(ended_at, started_at) < @before)
       ORDER BY key`,
    )
    .all({
      project,
      prefix: project === null ? null : project.endsWith('/') ? project : `${project}/`,
      ids: sel.sessions && sel.sessions.length > 0 ? JSON.stringify(sel.sessions) : null,
      source: sel.source ?? null,
      before: sel.beforeMs ?? null,
    }) as Array<{ key: string }>;
  return rows.map((r) => r.key);
}

/**
 * Tombstoned keys the key-based filters select (`--reharvest` lifts them): a tombstone keeps no folder
 * or time, so a selection by `--project` or `--before` finds none.
 */
export function selectForgottenKeys(db: Db, sel: SessionSelector): string[] {
  if (sel.project !== undefined || sel.beforeMs !== undefined) return [];
  const rows = db
    .prepare(
      `SELECT key FROM forgotten_sessions
       WHERE (@ids IS NULL OR key IN (SELECT value FROM json_each(@ids))
              OR substr(key, instr(key, ':') + 1) IN (SELECT value FROM json_each(@ids)))
         AND (@source IS NULL OR substr(key, 1, length(@source) + 1) = @source || ':')
       ORDER BY key`,
    )
    .all({
      ids: sel.sessions && sel.sessions.length > 0 ? JSON.stringify(sel.sessions) : null,
      source: sel.source ?? null,
    }) as Array<{ key: string }>;
  return rows.map((r) => r.key);
}

const DAY_MS = 86_400_000;

/**
 * Retention: forget (same cascade, no tombstone) the sessions that ended (or, without an end, started)
 * more than `retentionDays` days before `now`; the store is vacuumed only when something was dropped.
 */
export function applyRetention(db: Db, retentionDays: number, now: number): ForgetCounts {
  const keys = selectSessionKeys(db, { beforeMs: now - retentionDays * DAY_MS });
  if (keys.length === 0) return emptyCounts();
  const counts = forgetSessions(db, keys, { now, tombstone: false });
  if (changedAnything(counts)) vacuumStore(db);
  return counts;
}
