/**
 * What `status` shows of a project's waiting batch night, and what `forget` does to open ones. Kept
 * apart from `batch-night.ts` so those commands load no SDK or backend module.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { batchDir, batchNightDir } from '../config/paths.js';
import type { Db } from '../store/db.js';
import { batchJobs, dropAllBatchNights, requestCounts } from '../store/batches-repo.js';

export interface WaitingBatchNight {
  started_at: number | null;
  batches: Array<{ id: string; provider: string; state: string; attempt: number; requests: number }>;
  requests: number;
  answered: number;
  state_dir: string;
}

export function waitingBatchNight(home: string, db: Db, project: string): WaitingBatchNight | null {
  const dir = batchNightDir(home, project);
  if (!existsSync(dir)) return null;
  return {
    started_at: batchNightStarted(dir),
    batches: batchRows(db, project),
    ...requestCounts(db, project),
    state_dir: dir,
  };
}

/** The project's batches as reports and `status` show them. */
export function batchRows(db: Db, project: string): WaitingBatchNight['batches'] {
  return batchJobs(db, project).map((j) => ({
    id: j.batch_id,
    provider: j.provider,
    state: j.state,
    attempt: j.attempt,
    requests: j.request_count,
  }));
}

/** When the night in `dir` started (its `started` file), or null before it kept anything. */
export function batchNightStarted(dir: string): number | null {
  try {
    const n = Number(readFileSync(path.join(dir, 'started'), 'utf8').trim());
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * A forget ends every open batch night: their saved tasks and recorded requests may quote the
 * forgotten sessions, and a later `run` would send them again. Returns how many nights ended.
 */
export function endBatchNights(db: Db, home: string): number {
  const dir = batchDir(home);
  const open = existsSync(dir) ? readdirSync(dir).length : 0;
  const inStore = dropAllBatchNights(db);
  rmSync(dir, { recursive: true, force: true });
  return Math.max(open, inStore);
}
