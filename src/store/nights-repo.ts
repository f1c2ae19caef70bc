/** Night history and the replays each night ran. */
import { storedText } from '../core/safe-text.js';
import { ownIdentity, processAlive, type ProcessIdentity } from '../core/process-identity.js';
import type { Db } from './db.js';
import { replayRef, traceWriter } from './traces-repo.js';

export interface NightRow {
  id: number;
  project: string;
  started_at: number;
  finished_at: number | null;
  /** 'interrupted': its process ended (killed) before the night finished. */
  status: 'running' | 'completed' | 'failed' | 'interrupted';
  backend: string;
  n_sessions: number;
  n_tasks: number;
  baseline: number | null;
  candidate: number | null;
  accepted: number;
  gate_action: string;
  stopped: string;
  calls: number;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  cache_hits: number;
  proposal_id: string;
  error: string;
  /** The process running the night, and its start time ('' when the OS does not say). */
  pid: number | null;
  process_start: string;
}

export function startNight(db: Db, project: string, backend: string, now: number): number {
  const me = ownIdentity();
  const r = db
    .prepare(
      `INSERT INTO nights (project, started_at, status, backend, pid, process_start)
       VALUES (?, ?, 'running', ?, ?, ?)`,
    )
    .run(project, now, backend, me.pid, me.start);
  return Number(r.lastInsertRowid);
}

/** A running night without a recorded process (from before schema 9) is taken as interrupted after this. */
const UNRECORDED_RUNNING_MS = 24 * 3_600_000;

/**
 * Running nights whose process is gone (a killed `run`) become 'interrupted', so they do not show as
 * running for good. Returns how many were marked.
 */
export function markInterruptedNights(
  db: Db,
  now: number,
  alive: (who: ProcessIdentity) => boolean = processAlive,
): number {
  const running = db
    .prepare(`SELECT id, started_at, pid, process_start FROM nights WHERE status = 'running'`)
    .all() as Array<{ id: number; started_at: number; pid: number | null; process_start: string }>;
  const mark = db.prepare(
    `UPDATE nights SET status = 'interrupted', error = ? WHERE id = ? AND status = 'running'`,
  );
  let marked = 0;
  for (const n of running) {
    const gone =
      n.pid === null
        ? now - n.started_at > UNRECORDED_RUNNING_MS
        : !alive({ pid: n.pid, start: n.process_start });
    if (!gone) continue;
    const who = n.pid === null ? 'its process' : `its process (pid ${n.pid})`;
    marked += mark.run(`${who} ended before the night finished`, n.id).changes;
  }
  return marked;
}

export interface NightOutcome {
  nSessions: number;
  nTasks: number;
  baseline: number | null;
  candidate: number | null;
  accepted: boolean;
  gateAction: string;
  stopped: string;
  calls: number;
  tokens: number;
  /** Real backends only (the mock spends nothing). */
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  cacheHits?: number;
}

export function finishNight(db: Db, id: number, outcome: NightOutcome, now: number): void {
  db.prepare(
    `UPDATE nights SET finished_at = ?, status = 'completed', n_sessions = ?, n_tasks = ?, baseline = ?,
       candidate = ?, accepted = ?, gate_action = ?, stopped = ?, calls = ?, tokens = ?, input_tokens = ?,
       output_tokens = ?, cost_usd = ?, cache_hits = ? WHERE id = ?`,
  ).run(
    now,
    outcome.nSessions,
    outcome.nTasks,
    outcome.baseline,
    outcome.candidate,
    outcome.accepted ? 1 : 0,
    outcome.gateAction,
    outcome.stopped,
    outcome.calls,
    outcome.tokens,
    outcome.inputTokens ?? 0,
    outcome.outputTokens ?? 0,
    outcome.costUsd ?? 0,
    outcome.cacheHits ?? 0,
    id,
  );
}

export function failNight(db: Db, id: number, error: string, now: number): void {
  db.prepare(`UPDATE nights SET finished_at = ?, status = 'failed', error = ? WHERE id = ?`).run(
    now,
    storedText(error),
    id,
  );
}

/** A night's status, or null when there is no such row. */
export function nightStatus(db: Db, id: number): NightRow['status'] | null {
  const row = db.prepare('SELECT status FROM nights WHERE id = ?').get(id) as
    { status: NightRow['status'] } | undefined;
  return row?.status ?? null;
}

/** Remove a night that never happened (a handoff night waiting for answers) and its replays. */
export function forgetNight(db: Db, id: number): void {
  db.transaction(() => {
    db.prepare('DELETE FROM replays WHERE night_id = ?').run(id);
    db.prepare('DELETE FROM nights WHERE id = ?').run(id);
  })();
}

export function setNightProposal(db: Db, id: number, proposalId: string): void {
  db.prepare('UPDATE nights SET proposal_id = ? WHERE id = ?').run(proposalId, id);
}

/** This project's nights, newest first. */
export function nightsForProject(db: Db, project: string, limit: number): NightRow[] {
  return db
    .prepare('SELECT * FROM nights WHERE project = ? ORDER BY id DESC LIMIT ?')
    .all(project, limit) as NightRow[];
}

/**
 * When the project's newest night whose proposal was adopted started (null when none was): the
 * sessions before it have been learned from (also when the night was killed after staging it). Nights whose proposal was rejected, reverted, superseded
 * or is still waiting, and nights that proposed nothing, leave their sessions to later nights.
 */
export function lastAdoptedNightStart(db: Db, project: string): number | null {
  const row = db
    .prepare(
      `SELECT n.started_at AS startedAt FROM nights n
       JOIN proposals p ON p.project = n.project AND p.id = n.proposal_id
       WHERE n.project = ? AND n.status IN ('completed', 'interrupted') AND p.status = 'adopted'
       ORDER BY n.id DESC LIMIT 1`,
    )
    .get(project) as { startedAt: number } | undefined;
  return row?.startedAt ?? null;
}

/** How many nights this project has had (the per-project night number; the reference's was global). */
export function countNights(db: Db, project: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM nights WHERE project = ?').get(project) as { n: number }).n;
}

export interface ReplayRow {
  phase: string;
  taskId: string;
  split: string;
  docHash: string;
  sample: number;
  response: string;
  hard: number;
  soft: number;
  rationale: string;
  tokens: number;
  latencyMs: number;
  /** The sessions whose text the task carries (traced for `forget`). */
  sessions?: readonly string[];
}

/** Answers and rationales are stored plain and redacted, whatever backend wrote them. */
export function insertReplays(db: Db, nightId: number, rows: ReplayRow[]): void {
  const stmt = db.prepare(
    `INSERT INTO replays (night_id, phase, task_id, split, doc_hash, sample, response, hard, soft, rationale,
       tokens, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const trace = traceWriter(db);
  db.transaction(() => {
    for (const r of rows) {
      trace(r.sessions, 'replay', replayRef(nightId, r.taskId));
      stmt.run(
        nightId,
        r.phase,
        r.taskId,
        r.split,
        r.docHash,
        r.sample,
        storedText(r.response),
        r.hard,
        r.soft,
        storedText(r.rationale),
        r.tokens,
        r.latencyMs,
      );
    }
  }).immediate();
}
