/**
 * Provenance: which stored rows were derived from which sessions (`session_traces`), so `forget` and
 * retention remove every row that carries a forgotten session's text. A row is traced to every session
 * whose text went into it; one shared by a forgotten and a kept session is deleted (the next night
 * derives it again from what is kept).
 */
import type { Db } from './db.js';

/**
 * `task`: a mined task row (ref: its id); `replay`: a night's replays of one task (ref: JSON
 * `[night_id, task_id]`); `response_cache`: a cached model reply (ref: its key); `rejected_edit` /
 * `pending_edit`: an edit row (ref: JSON of its primary key).
 */
export type TraceKind = 'task' | 'replay' | 'response_cache' | 'rejected_edit' | 'pending_edit';

export type TraceWriter = (sessions: readonly string[] | undefined, kind: TraceKind, ref: string) => void;

/** Records traces with one prepared statement; sessions that are '' or repeated are skipped. */
export function traceWriter(db: Db): TraceWriter {
  const insert = db.prepare('INSERT OR IGNORE INTO session_traces (session_key, kind, ref) VALUES (?, ?, ?)');
  return (sessions, kind, ref) => {
    if (!sessions) return;
    for (const key of new Set(sessions)) if (key !== '') insert.run(key, kind, ref);
  };
}

export const replayRef = (nightId: number, taskId: string): string => JSON.stringify([nightId, taskId]);

export const editRef = (project: string, target: string, op: string, content: string): string =>
  JSON.stringify([project, target, op, content]);
