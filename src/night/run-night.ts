/**
 * One night, top to bottom, as named steps: plan (harvest → mine → split, targets, spend plan) →
 * run the passes (replay, reflect, gate) → settle the spend → the outcome → record → stage → report.
 * `dry-run` computes the same night but records nothing and writes nothing into the project.
 */
import type { HarvestContext } from '../../harvesters/types.js';
import type { Backend } from '../backends/types.js';
import type { Clock } from '../core/clock.js';
import { AnswerPendingError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Config } from '../config/schema.js';
import type { Env } from '../config/paths.js';
import type { Db } from '../store/db.js';
import { failNight, forgetNight, nightStatus, startNight } from '../store/nights-repo.js';
import type { Checkpoint } from '../../proposals/index.js';
import { lockProject } from './lock.js';
import type { HandoffQueue } from '../backends/handoff/handoff-queue.js';
import { finishHandoff, waitingSummary, type HandoffState } from './handoff-night.js';
import {
  batchSummary,
  discardBatchNight,
  pollBatches,
  rememberBatchInvocation,
  startedBatchInvocation,
  submitPending,
  type BatchNight,
} from './batch-night.js';
import type { BatchReport, NightReport } from './night-report.js';
import { planNight, waitingPlan, type NightPlan } from './night-plan.js';
import { runPasses } from './passes/index.js';
import type { TrainingPlan } from './passes/types.js';
import { nightTrainer, type ReplayLog } from './night-train.js';
import { idleOutcome, trainedOutcome, type NightOutcome } from './night-outcome.js';
import { closeNight, recordNight, stageNight } from './record-night.js';
import { toReport } from './to-report.js';
import { explainPlan } from './explain-night.js';
import { summarizeSends } from './explain-sends.js';

export interface NightDeps {
  home: string;
  /** The user's home, where agents keep their transcripts. */
  userHome: string;
  env: Env;
  clock: Clock;
  db: Db;
  backend: Backend;
  logger: Logger;
}

export interface NightRequest {
  project: string;
  config: Config;
  mode: 'run' | 'dry-run';
  tasksFile?: string;
  /** Folders of a team's exported tasks files, trained on together (`run --tasks-from`). */
  tasksFrom?: readonly string[];
  /** Ignore the lookback window (the bundled demo's transcripts are old). */
  ignoreLookback?: boolean;
  /** Where to harvest instead of the user's agents' folders (the demo harvests only its bundled transcripts). */
  harvestCtx?: HarvestContext;
  mapCwd?: (cwd: string) => string;
  /** Compute the tasks and the spend plan, then stop before the first model request (dry-run without --yes). */
  planOnly?: boolean;
  /** Test-only: called at each step of staging the proposal (the crash tests kill the process there). */
  stageCheckpoint?: Checkpoint;
  /** A handoff night: its queue, and its saved state once its mining finished (`handoff-night.ts`). */
  handoff?: { queue: HandoffQueue; state: HandoffState | null };
  /** A `--batch` night: its folder, saved state and batches (`batch-night.ts`). */
  batch?: BatchNight;
}

export async function runNight(req: NightRequest, deps: NightDeps): Promise<NightReport> {
  const started = req.batch?.started ?? req.handoff?.state?.started_at ?? deps.clock.now();
  const lock = req.mode === 'run' ? lockProject(deps.home, req.project, deps.clock.now()) : null;
  if (req.handoff && lock) forgetKilledInvocation(deps.db, req.handoff.queue.startedNight());
  if (req.batch && lock) forgetKilledInvocation(deps.db, startedBatchInvocation(req.batch));
  let plan: NightPlan | null = null;
  let nightId: number | null = null;
  // A batch night that fails while it replays would fail the same way on every later run: it ends
  // (so does one that failed before it batched anything: nothing of it is lost).
  let replaying = false;
  try {
    if (req.batch) {
      const polled = await pollBatches(req.batch, deps.logger);
      if (polled.kind !== 'ready') return batchStop(req, req.batch, deps, started, polled);
      replaying = true;
    }
    plan = await planNight(req, deps, started);
    if (req.planOnly) {
      const report = toReport(idleOutcome(plan, 'plan', outcomeAt(deps, null)));
      return { ...report, sends: summarizeSends(await explainPlan(plan, deps.userHome)) };
    }
    nightId = plan.records ? startNightRow(req, deps, plan) : null;
    if (plan.refusal || !plan.targets)
      throw plan.refusal ?? new Error('unreachable: a plan to train has targets');
    const training: TrainingPlan = { ...plan, targets: plan.targets };
    const log: ReplayLog = { done: [], baselineScore: null };
    const passes = await runPasses(training, nightTrainer(training, deps, nightId, log));
    // Requests sent before a budget stop still answer and bill: the report counts them (bounded wait).
    await deps.backend.settleSpend?.(inFlightWaitMs(req.config));
    const outcome = trainedOutcome(plan, passes, log, outcomeAt(deps, null));
    logGate(deps.logger, outcome);
    const settled: NightOutcome = req.handoff
      ? { ...outcome, handoff: finishHandoff(req.handoff.queue, deps) }
      : req.batch
        ? { ...outcome, batch: finishBatch(req.batch) }
        : outcome;
    return nightId === null ? toReport(settled) : await recordAndStage(req, deps, settled, nightId);
  } catch (err) {
    if (err instanceof AnswerPendingError && req.handoff) {
      // Not a night yet: it is recorded once, when its last answer lets it finish.
      if (nightId !== null) forgetNight(deps.db, nightId);
      const waiting = plan ?? waitingPlan(req, deps, started);
      return toReport(
        idleOutcome(waiting, 'waiting_handoff', outcomeAt(deps, waitingSummary(req.handoff.queue))),
      );
    }
    if (err instanceof AnswerPendingError && req.batch) {
      if (nightId !== null) forgetNight(deps.db, nightId);
      await submitPending(req.batch, deps.logger);
      const waiting = plan ?? waitingPlan(req, deps, started);
      return toReport(
        idleOutcome(waiting, 'waiting_batch', { ...outcomeAt(deps, null), batch: batchSummary(req.batch) }),
      );
    }
    if (nightId !== null) failNight(deps.db, nightId, errorMessage(err), deps.clock.now());
    if (req.batch && (replaying || batchSummary(req.batch).requests === 0)) discardBatchNight(req.batch);
    throw err;
  } finally {
    lock?.release();
  }
}

function startNightRow(req: NightRequest, deps: NightDeps, plan: NightPlan): number {
  const id = startNight(deps.db, req.project, deps.backend.name, plan.started);
  req.handoff?.queue.rememberNight(id);
  if (req.batch) rememberBatchInvocation(req.batch, id);
  return id;
}

/**
 * A batch night that did not replay: its batches still run (it waits again), or one failed twice
 * (the night ends: its batches and state are forgotten, the answers collected stay in the cache).
 */
function batchStop(
  req: NightRequest,
  night: BatchNight,
  deps: NightDeps,
  started: number,
  polled: { kind: 'waiting' } | { kind: 'failed'; reason: string },
): NightReport {
  const plan = waitingPlan(req, deps, started);
  if (polled.kind === 'waiting')
    return toReport(
      idleOutcome(plan, 'waiting_batch', { ...outcomeAt(deps, null), batch: batchSummary(night) }),
    );
  deps.logger.warn(`batch: ${polled.reason}; the night ends here`);
  const batch = batchSummary(night, polled.reason);
  discardBatchNight(night);
  const report = toReport(idleOutcome(plan, 'batch_failed', { ...outcomeAt(deps, null), batch }));
  return { ...report, notes: [...report.notes, `the night ended: ${polled.reason}`] };
}

/** The night finished: what its batches were, then they and its saved state are forgotten. */
function finishBatch(night: BatchNight): BatchReport {
  const summary = batchSummary(night);
  discardBatchNight(night);
  return summary;
}

/** Record what the night learned, stage its proposal, then complete its row with the final report. */
async function recordAndStage(
  req: NightRequest,
  deps: NightDeps,
  outcome: NightOutcome,
  nightId: number,
): Promise<NightReport> {
  const now = deps.clock.now();
  recordNight(deps.db, outcome, nightId, now);
  const staged = await stageNight(deps.db, outcome, {
    nightId,
    now,
    ...(req.stageCheckpoint ? { checkpoint: req.stageCheckpoint } : {}),
  });
  const report = toReport(outcome, {
    endedAt: deps.clock.now(),
    ...(staged?.unchanged ? { proposalId: staged.id, notes: [unchangedNote(staged.id)] } : {}),
    ...(staged && !staged.unchanged ? { stagingDir: staged.dir, proposalId: staged.id } : {}),
  });
  closeNight(deps.db, nightId, report);
  return report;
}

const unchangedNote = (id: string): string =>
  `nothing new was staged: the pending proposal ${id} already proposes exactly these files`;

const outcomeAt = (deps: NightDeps, handoff: NightOutcome['handoff']) => ({
  backend: deps.backend.name,
  spend: deps.backend.spendSummary?.() ?? null,
  endedAt: deps.clock.now(),
  handoff,
});

function logGate(logger: Logger, { budgetStop, result }: NightOutcome): void {
  logger.progress(
    budgetStop
      ? `budget: stopped by ${budgetStop.limit}`
      : `gate: ${result.baseline.toFixed(3)} -> ${result.candidate.toFixed(3)} (${result.gateAction})`,
  );
}

/**
 * An earlier invocation of this handoff or batch night that was killed left its row running; under the
 * project's lock nothing else runs it, so it never happened (the night is recorded when it finishes).
 */
function forgetKilledInvocation(db: Db, id: number | null): void {
  const status = id === null ? null : nightStatus(db, id);
  if (id !== null && (status === 'running' || status === 'interrupted')) forgetNight(db, id);
}

/** Longest a request sent before the budget tripped can still take to answer or time out. */
const inFlightWaitMs = (config: Config): number =>
  Math.max(config.request_timeout_s, config.cli_timeout_s) * 1000 + 5000;
