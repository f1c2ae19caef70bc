/**
 * A `--batch` night across invocations. Each invocation replays the night from its saved state
 * (`resumable-night.ts`); requests with a collected batch result are answered from the store, the
 * others are recorded and, when the invocation stops to wait, submitted together as ONE batch per
 * provider and model. The next `run` first polls the open batches: still running → it waits again
 * without replaying; completed → the results go into the store and the night replays further;
 * expired or failed → resubmitted once, and a second failure ends the night (`batch_failed`). To
 * `run-night.ts` it is a `WaitingNight` (`waiting-night.ts`, `batchWaitingNight` below).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BackendError, errorMessage } from '../core/errors.js';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import { makePrivateDir } from '../core/io/private-mode.js';
import type { Logger } from '../core/logger.js';
import { batchNightDir } from '../config/paths.js';
import type { Db } from '../store/db.js';
import {
  batchJobs,
  dropBatchNight,
  openRequests,
  recordBatch,
  requestCounts,
  requestsOfBatch,
  setBatchState,
  storeAnswers,
  storeResults,
  unsubmitBatch,
  unsubmittedRequests,
  type BatchRequestRow,
} from '../store/batches-repo.js';
import type { BatchApi, BatchItem, BatchPoll } from '../backends/batch/batch-api.js';
import { apiKey, type BatchNightStore } from '../backends/batch/batch-provider.js';
import type { ChatRequest } from '../backends/llm/chat.js';
import { ProviderFailure } from '../backends/llm/chat.js';
import { BATCH_PRICE_FACTOR } from '../backends/llm/prices.js';
import type { BatchReport, WaitingSummary } from './night-report.js';
import { loadResumableState, saveResumableState, type ResumableNight } from './resumable-night.js';
import { countByPurpose, type WaitingNight } from './waiting-night.js';
import { batchNightStarted, batchRows } from './batch-status.js';

/** A batch is resubmitted once after it expired or failed; the second failure ends the night. */
const MAX_BATCH_ATTEMPTS = 2;

export interface BatchNight extends ResumableNight {
  store: BatchNightStore;
  /** When the night's first invocation started (the night's start, kept across invocations). */
  started: number;
}

export { batchNightDir };

/** True when the project has a batch night open (its folder exists). */
export function batchNightOpen(home: string, project: string): boolean {
  return existsSync(batchNightDir(home, project));
}

/**
 * The project's batch night: the one already open, or a new one starting now. A new night writes
 * nothing until it has something to keep (its mined state or a batch), so a `run` that stops before
 * (a held lock, a bad tasks file) leaves no open night for the next `run` to take up.
 */
export function openBatchNight(home: string, db: Db, project: string, now: () => number): BatchNight {
  const dir = batchNightDir(home, project);
  return {
    dir,
    project,
    started: batchNightStarted(dir) ?? now(),
    state: loadResumableState(dir, project),
    store: { db, project, now, apis: new Map<string, BatchApi>() },
  };
}

/** Make the night's private folder (and its start) before the first thing it keeps. */
export function keepBatchNight(night: BatchNight): void {
  makePrivateDir(path.dirname(night.dir));
  makePrivateDir(night.dir);
  const file = path.join(night.dir, 'started');
  if (!existsSync(file)) writeFileAtomicSync(file, `${night.started}\n`, 0o600);
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** Note the store's row of the invocation now running, so a later one can drop it if this one dies. */
export function rememberBatchInvocation(night: BatchNight, nightId: number): void {
  keepBatchNight(night);
  writeFileAtomicSync(path.join(night.dir, 'night-id'), `${nightId}\n`, 0o600);
}

export function startedBatchInvocation(night: BatchNight): number | null {
  const id = Number(readOr(path.join(night.dir, 'night-id'), ''));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const requestOf = (row: BatchRequestRow): BatchItem => ({
  customId: row.custom_id,
  request: JSON.parse(row.request) as ChatRequest,
});

function apiFor(night: BatchNight, row: Pick<BatchRequestRow, 'provider' | 'model'>): BatchApi | undefined {
  return night.store.apis.get(apiKey(row.provider, row.model));
}

/** Submit failures: a passing one leaves the requests for the next `run`; any other stops the night. */
function submitFailure(err: unknown, logger: Logger): void {
  if (err instanceof ProviderFailure && err.kind === 'retryable') {
    logger.warn(`${err.message}; the requests are submitted again on the next run`);
    return;
  }
  throw err instanceof ProviderFailure ? new BackendError(err.message) : err;
}

/** Submit every recorded, unsubmitted request: one batch per provider and model (within its limit). */
export async function submitPending(night: BatchNight, logger: Logger): Promise<number> {
  const groups = new Map<string, BatchRequestRow[]>();
  for (const row of unsubmittedRequests(night.store.db, night.project)) {
    const key = apiKey(row.provider, row.model);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  let submitted = 0;
  if (groups.size > 0) keepBatchNight(night);
  for (const rows of groups.values()) {
    const first = rows[0];
    const api = first ? apiFor(night, first) : undefined;
    // Requests of a provider or model this night no longer uses are never asked again.
    if (!api) continue;
    for (let i = 0; i < rows.length; i += api.maxRequests) {
      const chunk = rows.slice(i, i + api.maxRequests);
      try {
        const id = await api.submit(chunk.map(requestOf));
        recordBatch(night.store.db, {
          project: night.project,
          batchId: id,
          nightStarted: night.started,
          provider: api.name,
          attempt: 1,
          now: night.store.now(),
          customIds: chunk.map((r) => r.custom_id),
        });
        submitted += 1;
        logger.progress(`batch: submitted ${id} to ${api.name} (${chunk.length} requests)`);
      } catch (err) {
        submitFailure(err, logger);
      }
    }
  }
  return submitted;
}

/** Stored results need the provider's copy no more; failing to remove it only costs a warning. */
async function discardRemote(api: BatchApi, batchId: string, logger: Logger): Promise<void> {
  try {
    await api.discard(batchId);
  } catch (err) {
    logger.warn(`batch: could not remove ${batchId} from ${api.name}: ${errorMessage(err)}`);
  }
}

export type PollOutcome = { kind: 'ready' } | { kind: 'waiting' } | { kind: 'failed'; reason: string };

/** Poll every open batch: collect the finished, resubmit a failed one once, say whether to replay. */
export async function pollBatches(night: BatchNight, logger: Logger): Promise<PollOutcome> {
  const { db, project } = night.store;
  let waiting = false;
  for (const job of batchJobs(db, project).filter((j) => j.state === 'in_progress')) {
    const rows = requestsOfBatch(db, project, job.batch_id);
    const api = rows[0] ? apiFor(night, rows[0]) : undefined;
    if (!api) {
      setBatchState(db, project, job.batch_id, 'failed', night.store.now());
      continue;
    }
    let polled: BatchPoll;
    try {
      polled = await api.poll(job.batch_id);
    } catch (err) {
      if (!(err instanceof ProviderFailure) || err.kind !== 'retryable')
        throw err instanceof ProviderFailure ? new BackendError(err.message) : err;
      logger.warn(`${err.message}; polled again on the next run`);
      waiting = true;
      continue;
    }
    if (polled.state === 'in_progress') {
      logger.progress(`batch: ${job.batch_id} (${api.name}) is ${polled.status}`);
      waiting = true;
      continue;
    }
    if (polled.state === 'completed') {
      storeResults(db, project, job.batch_id, polled.results, night.store.now());
      logger.progress(`batch: collected ${job.batch_id} (${polled.results.length} results)`);
      await discardRemote(api, job.batch_id, logger);
      continue;
    }
    setBatchState(db, project, job.batch_id, polled.state, night.store.now());
    if (polled.results && polled.results.length > 0) storeAnswers(db, project, job.batch_id, polled.results);
    const open = requestsOfBatch(db, project, job.batch_id).filter((r) => r.answer === null);
    if (open.length === 0) {
      setBatchState(db, project, job.batch_id, 'collected', night.store.now());
      continue;
    }
    if (job.attempt >= MAX_BATCH_ATTEMPTS) {
      await discardRemote(api, job.batch_id, logger);
      return {
        kind: 'failed',
        reason: `the batch ${job.batch_id} (${api.name}) ${polled.state} again after one resubmission: ${polled.reason}`,
      };
    }
    logger.warn(
      `batch: ${job.batch_id} (${api.name}) ${polled.state} (${polled.reason}); submitting its ${open.length} unanswered requests again`,
    );
    const id = await api.submit(open.map(requestOf)).catch((err: unknown) => {
      submitFailure(err, logger);
      return null;
    });
    if (id === null) {
      // Not resubmitted (a passing failure): its requests wait for the next run's submission.
      unsubmitBatch(db, project, job.batch_id);
      continue;
    }
    setBatchState(db, project, job.batch_id, 'retried', night.store.now());
    await discardRemote(api, job.batch_id, logger);
    recordBatch(db, {
      project,
      batchId: id,
      nightStarted: night.started,
      provider: api.name,
      attempt: job.attempt + 1,
      now: night.store.now(),
      customIds: open.map((r) => r.custom_id),
    });
    waiting = true;
  }
  return waiting ? { kind: 'waiting' } : { kind: 'ready' };
}

/** What a report says about the night's batches (waiting, finished or failed). */
export function batchSummary(night: BatchNight, failed = ''): BatchReport {
  const { db, project } = night.store;
  const counts = requestCounts(db, project);
  const providers = [...new Set([...night.store.apis.values()].map((a) => a.name))];
  return {
    batches: batchRows(db, project),
    requests: counts.requests,
    answered: counts.answered,
    price_factor: Math.max(
      0,
      ...providers.map((p) => BATCH_PRICE_FACTOR[p as keyof typeof BATCH_PRICE_FACTOR] ?? 0),
    ),
    failed,
    state_dir: night.dir,
  };
}

/** The night finished (or failed for good): forget its batches and its saved state. */
export function discardBatchNight(night: BatchNight): void {
  dropBatchNight(night.store.db, night.project);
  rmSync(night.dir, { recursive: true, force: true });
}

/** The night as `run-night.ts` drives it (a `WaitingNight`). */
export function batchWaitingNight(night: BatchNight): WaitingNight {
  let replaying = false;
  return {
    waitsAs: 'waiting_batch',
    state: night.state,
    started: night.started,
    saveState(state) {
      keepBatchNight(night);
      saveResumableState(night.dir, state);
    },
    lastInvocation: () => startedBatchInvocation(night),
    rememberInvocation: (id) => rememberBatchInvocation(night, id),
    async resume(logger) {
      const polled = await pollBatches(night, logger);
      if (polled.kind === 'ready') {
        replaying = true;
        return { kind: 'replay' };
      }
      if (polled.kind === 'waiting')
        return {
          kind: 'wait',
          waiting: waitingFor(night, savedPhases(night)),
          source: { batch: batchSummary(night) },
        };
      // Failed twice: its batches and state are forgotten, the answers collected stay in the cache.
      logger.warn(`batch: ${polled.reason}; the night ends here`);
      const batch = batchSummary(night, polled.reason);
      discardBatchNight(night);
      return { kind: 'ended', stopped: 'batch_failed', reason: polled.reason, source: { batch } };
    },
    async wait(pending, logger) {
      await submitPending(night, logger);
      // A later run that finds the batches still running says what they answer.
      keepBatchNight(night);
      writeFileAtomicSync(phasesFile(night), `${JSON.stringify(pending.phases)}\n`, 0o600);
      return { waiting: waitingFor(night, pending.phases), source: { batch: batchSummary(night) } };
    },
    finish() {
      const batch = batchSummary(night);
      discardBatchNight(night);
      return { batch };
    },
    fail() {
      // A night that fails while it replays would fail the same way on every later run: it ends (so
      // does one that failed before it batched anything: nothing of it is lost).
      if (replaying || batchSummary(night).requests === 0) discardBatchNight(night);
    },
  };
}

const phasesFile = (night: BatchNight): string => path.join(night.dir, 'waiting-phases.json');

/** The phases the last invocation stopped in (none when it was not saved). */
function savedPhases(night: BatchNight): string[] {
  try {
    const value: unknown = JSON.parse(readFileSync(phasesFile(night), 'utf8'));
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** What the night waits for: its requests without an answer yet, by purpose. */
function waitingFor(night: BatchNight, phases: readonly string[]): WaitingSummary {
  const { db, project } = night.store;
  const open = openRequests(db, project);
  return {
    phases: [...phases],
    open: open.length,
    open_by_purpose: countByPurpose(open.map(purposeOf)),
    requests: requestCounts(db, project).requests,
  };
}

function purposeOf(row: BatchRequestRow): string {
  try {
    const req = JSON.parse(row.request) as Partial<ChatRequest>;
    return req.purpose ?? req.role ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
