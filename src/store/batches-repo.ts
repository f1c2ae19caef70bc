/**
 * A `--batch` night's batches and their requests (migration 15). A request is recorded when the night
 * first asks it (already redacted), gets a batch id when it is submitted, and an answer (or an error)
 * when its batch is collected. One batch night per project at a time; `dropBatchNight` removes it.
 */
import type { Db } from './db.js';

/** `in_progress`: submitted, not collected; `collected`: results stored; `retried`: resubmitted as a new batch. */
export type BatchJobState = 'in_progress' | 'collected' | 'expired' | 'failed' | 'retried';

export interface BatchJobRow {
  batch_id: string;
  night_started: number;
  provider: string;
  state: BatchJobState;
  attempt: number;
  created_at: number;
  updated_at: number;
  request_count: number;
}

export interface BatchRequestRow {
  custom_id: string;
  provider: string;
  model: string;
  /** The redacted request as JSON (a `ChatRequest` without provenance). */
  request: string;
  batch_id: string | null;
  attempt: number;
  answer: string | null;
  input_tokens: number;
  output_tokens: number;
  error: string;
  error_kind: '' | 'retryable' | 'fatal';
}

export function batchRequest(db: Db, project: string, customId: string): BatchRequestRow | undefined {
  return db
    .prepare('SELECT * FROM batch_requests WHERE project = ? AND custom_id = ?')
    .get(project, customId) as BatchRequestRow | undefined;
}

/** True when this night asked the request (answered or not): its cache entry is this night's to count. */
export function isBatchRequest(db: Db, project: string, customId: string): boolean {
  return (
    db.prepare('SELECT 1 FROM batch_requests WHERE project = ? AND custom_id = ?').get(project, customId) !==
    undefined
  );
}

/** Record a request the night waits for (once: asking again keeps the first record). */
export function addPendingRequest(
  db: Db,
  r: { project: string; customId: string; provider: string; model: string; request: string; now: number },
): void {
  db.prepare(
    `INSERT OR IGNORE INTO batch_requests (project, custom_id, provider, model, request, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(r.project, r.customId, r.provider, r.model, r.request, r.now);
}

/** Requests waiting to be submitted (never submitted, or put back after a retryable error), oldest first. */
export function unsubmittedRequests(db: Db, project: string): BatchRequestRow[] {
  return db
    .prepare(
      `SELECT * FROM batch_requests WHERE project = ? AND batch_id IS NULL AND answer IS NULL
         AND error_kind = '' ORDER BY created_at, custom_id`,
    )
    .all(project) as BatchRequestRow[];
}

/** Requests still waiting for an answer (submitted or not; not failed for good), oldest first. */
export function openRequests(db: Db, project: string): BatchRequestRow[] {
  return db
    .prepare(
      `SELECT * FROM batch_requests WHERE project = ? AND answer IS NULL AND error_kind = ''
         ORDER BY created_at, custom_id`,
    )
    .all(project) as BatchRequestRow[];
}

export function requestsOfBatch(db: Db, project: string, batchId: string): BatchRequestRow[] {
  return db
    .prepare('SELECT * FROM batch_requests WHERE project = ? AND batch_id = ? ORDER BY created_at, custom_id')
    .all(project, batchId) as BatchRequestRow[];
}

/** A submitted batch, and its requests marked as in it (one transaction). */
export function recordBatch(
  db: Db,
  b: {
    project: string;
    batchId: string;
    nightStarted: number;
    provider: string;
    attempt: number;
    now: number;
    customIds: string[];
  },
): void {
  const mark = db.prepare('UPDATE batch_requests SET batch_id = ? WHERE project = ? AND custom_id = ?');
  db.transaction(() => {
    db.prepare(
      `INSERT INTO batch_jobs (project, batch_id, night_started, provider, state, attempt, created_at,
         updated_at, request_count) VALUES (?, ?, ?, ?, 'in_progress', ?, ?, ?, ?)`,
    ).run(b.project, b.batchId, b.nightStarted, b.provider, b.attempt, b.now, b.now, b.customIds.length);
    for (const id of b.customIds) mark.run(b.batchId, b.project, id);
  })();
}

export function batchJobs(db: Db, project: string): BatchJobRow[] {
  return db
    .prepare(
      `SELECT batch_id, night_started, provider, state, attempt, created_at, updated_at, request_count
       FROM batch_jobs WHERE project = ? ORDER BY created_at, batch_id`,
    )
    .all(project) as BatchJobRow[];
}

export function setBatchState(
  db: Db,
  project: string,
  batchId: string,
  state: BatchJobState,
  now: number,
): void {
  db.prepare('UPDATE batch_jobs SET state = ?, updated_at = ? WHERE project = ? AND batch_id = ?').run(
    state,
    now,
    project,
    batchId,
  );
}

export interface CollectedResult {
  customId: string;
  /** The answer, or null with `error` set. */
  text: string | null;
  inputTokens: number;
  outputTokens: number;
  error: string;
  errorKind: '' | 'retryable' | 'fatal';
}

/**
 * Store a collected batch's results and mark it collected (one transaction). A request that failed
 * retryably for the first time goes back to the unsubmitted ones (the next batch carries it); a second
 * such failure, or a fatal one, stays as its error. A request missing from the results is put back too.
 */
export function storeResults(
  db: Db,
  project: string,
  batchId: string,
  results: CollectedResult[],
  now: number,
): void {
  const answer = db.prepare(
    `UPDATE batch_requests SET answer = ?, input_tokens = ?, output_tokens = ?, error = '', error_kind = ''
     WHERE project = ? AND custom_id = ? AND batch_id = ?`,
  );
  const retry = db.prepare(
    `UPDATE batch_requests SET batch_id = NULL, attempt = attempt + 1, error = ?
     WHERE project = ? AND custom_id = ? AND batch_id = ? AND attempt = 0`,
  );
  const fail = db.prepare(
    `UPDATE batch_requests SET error = ?, error_kind = ? WHERE project = ? AND custom_id = ? AND batch_id = ?`,
  );
  db.transaction(() => {
    const seen = new Set<string>();
    for (const r of results) {
      seen.add(r.customId);
      if (r.text !== null) {
        answer.run(r.text, r.inputTokens, r.outputTokens, project, r.customId, batchId);
        continue;
      }
      const requeued =
        r.errorKind === 'retryable' && retry.run(r.error, project, r.customId, batchId).changes;
      if (!requeued) fail.run(r.error, r.errorKind || 'fatal', project, r.customId, batchId);
    }
    for (const row of requestsOfBatch(db, project, batchId)) {
      if (seen.has(row.custom_id)) continue;
      const requeued = retry.run('missing from the results', project, row.custom_id, batchId).changes;
      if (!requeued) fail.run('missing from the batch results', 'fatal', project, row.custom_id, batchId);
    }
    setBatchState(db, project, batchId, 'collected', now);
  })();
}

/** Store the answers a lapsed batch finished (its other requests are resubmitted). */
export function storeAnswers(db: Db, project: string, batchId: string, results: CollectedResult[]): void {
  const answer = db.prepare(
    `UPDATE batch_requests SET answer = ?, input_tokens = ?, output_tokens = ?, error = '', error_kind = ''
     WHERE project = ? AND custom_id = ? AND batch_id = ?`,
  );
  db.transaction(() => {
    for (const r of results)
      if (r.text !== null) answer.run(r.text, r.inputTokens, r.outputTokens, project, r.customId, batchId);
  })();
}

/** Put a batch's requests back under a new batch id (its resubmission). */
export function moveRequests(db: Db, project: string, fromBatch: string, toBatch: string): void {
  db.prepare('UPDATE batch_requests SET batch_id = ? WHERE project = ? AND batch_id = ?').run(
    toBatch,
    project,
    fromBatch,
  );
}

/** A batch that could not be resubmitted: its requests wait for the next submission. */
export function unsubmitBatch(db: Db, project: string, batchId: string): void {
  db.prepare('UPDATE batch_requests SET batch_id = NULL WHERE project = ? AND batch_id = ?').run(
    project,
    batchId,
  );
}

/** How many requests the night asked, and how many have an answer. */
export function requestCounts(db: Db, project: string): { requests: number; answered: number } {
  const row = db
    .prepare(
      'SELECT COUNT(*) AS n, SUM(answer IS NOT NULL) AS answered FROM batch_requests WHERE project = ?',
    )
    .get(project) as { n: number; answered: number | null };
  return { requests: row.n, answered: row.answered ?? 0 };
}

/** Forget the project's batch night (it finished, failed, or is discarded). */
export function dropBatchNight(db: Db, project: string): void {
  db.transaction(() => {
    db.prepare('DELETE FROM batch_requests WHERE project = ?').run(project);
    db.prepare('DELETE FROM batch_jobs WHERE project = ?').run(project);
  })();
}

/** Every project's batch night (a forget: their requests may quote any session). Returns how many. */
export function dropAllBatchNights(db: Db): number {
  return db.transaction(() => {
    const n = (db.prepare('SELECT COUNT(DISTINCT project) AS n FROM batch_requests').get() as { n: number })
      .n;
    db.prepare('DELETE FROM batch_requests').run();
    db.prepare('DELETE FROM batch_jobs').run();
    return n;
  })();
}
