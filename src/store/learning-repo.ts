/** What nights learn across runs: recurring tasks and the edits the gate refused. */
import { LEGACY_REGRESSION_REASON, normalizeEditContent, REGRESSION_REASON } from '../core/rejected-edit.js';
import type { Check, Edit, EditTarget } from '../core/task.js';
import { mapStrings, storedText } from '../core/safe-text.js';
import type { Db } from './db.js';
import { editRef, traceWriter } from './traces-repo.js';

export interface TaskUpsert {
  id: string;
  project: string;
  intent: string;
  occurrences: number;
  firstSeen: number | null;
  lastSeen: number | null;
  checks: Check[];
  outcomes: Record<string, number>;
  /** The sessions it was mined from (its checks quote their corrections): traced for `forget`. */
  members?: readonly string[];
}

/** Every text a store row keeps from tasks or model replies is plain and redacted (`storedText`). */
export function upsertTasks(db: Db, tasks: TaskUpsert[], now: number): void {
  const stmt = db.prepare(
    `INSERT INTO tasks (id, project, intent, occurrences, first_seen, last_seen, checks, outcomes, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET intent = excluded.intent, occurrences = excluded.occurrences,
       first_seen = MIN(COALESCE(tasks.first_seen, excluded.first_seen), COALESCE(excluded.first_seen, tasks.first_seen)),
       last_seen = MAX(COALESCE(tasks.last_seen, 0), COALESCE(excluded.last_seen, 0)),
       checks = excluded.checks, outcomes = excluded.outcomes, updated_at = excluded.updated_at`,
  );
  const trace = traceWriter(db);
  db.transaction(() => {
    for (const t of tasks) {
      trace(t.members, 'task', t.id);
      stmt.run(
        t.id,
        t.project,
        storedText(t.intent),
        t.occurrences,
        t.firstSeen,
        t.lastSeen,
        JSON.stringify(mapStrings(t.checks, storedText)),
        JSON.stringify(t.outcomes),
        now,
      );
    }
  }).immediate();
}

export function countTasks(db: Db, project: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE project = ?').get(project) as { n: number }).n;
}

export interface RejectedEditRow {
  target: EditTarget;
  op: string;
  content: string;
  delta: number;
  reason: string;
  /** When it was last refused (epoch ms). */
  at: number;
  times: number;
}

/** An edit refused again keeps its worst delta and that refusal's reason (a harmful verdict sticks). */
export function recordRejectedEdit(
  db: Db,
  project: string,
  edit: { target: EditTarget; op: string; content: string; reason?: string },
  delta: number,
  nightId: number | null,
  now: number,
  /** The sessions of the tasks the edit was reflected from (traced for `forget`). */
  sessions?: readonly string[],
): void {
  const contentNorm = normalizeEditContent(storedText(edit.content));
  traceWriter(db)(sessions, 'rejected_edit', editRef(project, edit.target, edit.op, contentNorm));
  db.prepare(
    `INSERT INTO rejected_edits (project, target, op, content_norm, content, night_id, delta, reason, times, last_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
     ON CONFLICT (project, target, op, content_norm) DO UPDATE SET
       reason = CASE WHEN excluded.delta < rejected_edits.delta OR rejected_edits.delta >= 0 AND rejected_edits.reason NOT IN (?, ?)
         THEN excluded.reason ELSE rejected_edits.reason END,
       delta = MIN(rejected_edits.delta, excluded.delta),
       times = rejected_edits.times + 1, night_id = excluded.night_id, last_at = excluded.last_at`,
  ).run(
    project,
    edit.target,
    edit.op,
    contentNorm,
    storedText(edit.content),
    nightId,
    delta,
    storedText(edit.reason ?? ''),
    now,
    REGRESSION_REASON,
    LEGACY_REGRESSION_REASON,
  );
}

export function rejectedEdits(db: Db, project: string): RejectedEditRow[] {
  return db
    .prepare(
      'SELECT target, op, content, delta, reason, last_at AS at, times FROM rejected_edits WHERE project = ? ORDER BY last_at DESC',
    )
    .all(project) as RejectedEditRow[];
}

/** Edits that tied (no gain, no harm) are re-tested with later nights' edits, a few times at most. */
export const MAX_PENDING_TRIES = 3;

export function pendingEdits(db: Db, project: string): Edit[] {
  return db
    .prepare(
      'SELECT target, op, content, anchor, rationale FROM pending_edits WHERE project = ? ORDER BY updated_at, rowid',
    )
    .all(project) as Edit[];
}

/** Replace the project's pending edits with `edits`, counting how often each was tried. */
export function savePendingEdits(
  db: Db,
  project: string,
  edits: Edit[],
  now: number,
  /** The sessions of the tasks the edits were reflected from (traced for `forget`). */
  sessions?: readonly string[],
): void {
  const trace = traceWriter(db);
  db.transaction(() => {
    const tries = new Map(
      (
        db
          .prepare('SELECT target, op, content, tries FROM pending_edits WHERE project = ?')
          .all(project) as Array<{
          target: string;
          op: string;
          content: string;
          tries: number;
        }>
      ).map((r) => [`${r.target}|${r.op}|${r.content}`, r.tries]),
    );
    db.prepare('DELETE FROM pending_edits WHERE project = ?').run(project);
    const insert = db.prepare(
      `INSERT OR IGNORE INTO pending_edits (project, target, op, content, anchor, rationale, tries, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of edits) {
      const n = (tries.get(`${e.target}|${e.op}|${e.content}`) ?? 0) + 1;
      if (n > MAX_PENDING_TRIES) continue;
      const content = storedText(e.content);
      trace(sessions, 'pending_edit', editRef(project, e.target, e.op, content));
      insert.run(project, e.target, e.op, content, storedText(e.anchor), storedText(e.rationale), n, now);
    }
  }).immediate();
}
