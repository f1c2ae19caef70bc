/** What `status` shows of a project's waiting batch night: its batches and how far its requests got. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/db.js';
import { batchJobs, requestCounts } from '../store/batches-repo.js';
import { batchNightDir, batchNightOpen } from './batch-night.js';

export interface WaitingBatchNight {
  started_at: number | null;
  batches: Array<{ id: string; provider: string; state: string; attempt: number; requests: number }>;
  requests: number;
  answered: number;
  state_dir: string;
}

export function waitingBatchNight(home: string, db: Db, project: string): WaitingBatchNight | null {
  if (!batchNightOpen(home, project)) return null;
  const dir = batchNightDir(home, project);
  return {
    started_at: startedAt(dir),
    batches: batchJobs(db, project).map((j) => ({
      id: j.batch_id,
      provider: j.provider,
      state: j.state,
      attempt: j.attempt,
      requests: j.request_count,
    })),
    ...requestCounts(db, project),
    state_dir: dir,
  };
}

function startedAt(dir: string): number | null {
  try {
    const n = Number(readFileSync(path.join(dir, 'started'), 'utf8').trim());
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
