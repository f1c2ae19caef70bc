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
import type { NightReport, NightResult, WaitingReport } from './night-report.js';
import type { AnswerSource, Resumption, WaitingNight, WaitingStop } from './waiting-night.js';
import { planNight, waitingPlan, type NightPlan } from './night-plan.js';
import { runPasses } from './passes/index.js';
import type { TrainingPlan } from './passes/types.js';
import { nightTrainer, type ReplayLog } from './night-train.js';
import { nightLift } from './night-lift.js';
import { ReplayMemo } from '../replay/replay-memo.js';
import { idleOutcome, trainedOutcome, type NightOutcome } from './night-outcome.js';
import { closeNight, recordNight, stageNight } from './record-night.js';
import { toReport, toWaitingReport } from './to-report.js';
import type { TaskSet } from './night-tasks.js';
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
  /** The bundled demo's night (`run --demo`): its proposal's report says to adopt it with `adopt --demo`. */
  demo?: boolean;
  /** What mined ids hash in place of the project folder (the demo's: `MineOptions.idSpace`). */
  idSpace?: string;
  /** Compute the tasks and the spend plan, then stop before the first model request (dry-run without --yes). */
  planOnly?: boolean;
  /**
   * The project folder is not on this machine (moved, deleted, recorded on another OS): the night mines
   * the sessions the store holds for it, model passes included (their readings are kept with the
   * sessions), then refuses to train, having no skill to read and no folder to stage into.
   */
  projectGone?: boolean;
  /** Test-only: called at each step of staging the proposal (the crash tests kill the process there). */
  stageCheckpoint?: Checkpoint;
  /** A night that waits for answers across invocations: a handoff or a `--batch` night. */
  waiting?: WaitingNight;
}

/** A night that cannot wait for answers (no `waiting`) always runs to its report. */
export function runNight(req: NightRequest & { waiting?: undefined }, deps: NightDeps): Promise<NightReport>;
export function runNight(req: NightRequest, deps: NightDeps): Promise<NightResult>;
export async function runNight(req: NightRequest, deps: NightDeps): Promise<NightResult> {
  const waiting = req.waiting ?? null;
  const started = waiting?.started ?? deps.clock.now();
  const lock = req.mode === 'run' ? lockProject(deps.home, req.project, deps.clock.now()) : null;
  if (waiting && lock) forgetKilledInvocation(deps.db, waiting.lastInvocation());
  let plan: NightPlan | null = null;
  let nightId: number | null = null;
  try {
    const resumed = waiting ? await waiting.resume(deps.logger) : null;
    if (waiting && resumed && resumed.kind !== 'replay')
      return stopBeforeReplay(req, deps, started, { waiting, resumed });
    plan = await planNight(req, deps, started);
    if (req.planOnly) {
      const report = toReport(idleOutcome(plan, 'plan', outcomeAt(deps, {})));
      return { ...report, sends: summarizeSends(await explainPlan(plan, deps.userHome)) };
    }
    nightId = plan.records ? startNightRow(req, deps, plan) : null;
    if (plan.refusal || !plan.targets) {
      // Refused once its mining had every answer: the night ended, so a waiting one keeps what it was
      // answered (a handoff night's recording) and a later run starts afresh instead of refusing again.
      if (plan.refusal) waiting?.finish(deps);
      throw plan.refusal ?? new Error('unreachable: a plan to train has targets');
    }
    const training: TrainingPlan = { ...plan, targets: plan.targets };
    const log: ReplayLog = { done: [], baselineScore: null };
    const memo = new ReplayMemo();
    const passes = await runPasses(training, nightTrainer(training, deps, nightId, log, memo));
    const lift = await nightLift(passes, { backend: deps.backend, memo, config: plan.config });
    // Requests sent before a budget stop still answer and bill: the report counts them (bounded wait).
    await deps.backend.settleSpend?.(inFlightWaitMs(req.config));
    const trained = trainedOutcome(plan, passes, log, outcomeAt(deps, {}), lift);
    logGate(deps.logger, trained);
    const outcome = waiting ? { ...trained, answers: waiting.finish(deps) } : trained;
    return nightId === null ? toReport(outcome) : await recordAndStage(req, deps, outcome, nightId);
  } catch (err) {
    if (err instanceof AnswerPendingError && waiting) {
      // Not a night yet: it is recorded once, when its last answer lets it finish.
      if (nightId !== null) forgetNight(deps.db, nightId);
      const stop = await waiting.wait(err, deps.logger);
      return waitingReport(req, deps, started, { waiting, stop, tasks: plan?.tasks ?? null });
    }
    if (nightId !== null) failNight(deps.db, nightId, errorMessage(err), deps.clock.now());
    waiting?.fail();
    throw err;
  } finally {
    lock?.release();
  }
}

function startNightRow(req: NightRequest, deps: NightDeps, plan: NightPlan): number {
  const id = startNight(deps.db, req.project, deps.backend.name, plan.started);
  req.waiting?.rememberInvocation(id);
  return id;
}

/** A waiting night that did not replay: its answers are not in yet (it waits again), or it ended. */
function stopBeforeReplay(
  req: NightRequest,
  deps: NightDeps,
  started: number,
  { waiting, resumed }: { waiting: WaitingNight; resumed: Exclude<Resumption, { kind: 'replay' }> },
): NightResult {
  if (resumed.kind === 'wait')
    return waitingReport(req, deps, started, { waiting, stop: resumed, tasks: waiting.state?.tasks ?? null });
  const plan = waitingPlan(req, deps, started);
  const report = toReport(idleOutcome(plan, resumed.stopped, outcomeAt(deps, resumed.source)));
  return { ...report, notes: [...report.notes, `the night ended: ${resumed.reason}`] };
}

/** What an invocation that stops to wait says: what ran, and what the night waits for. */
function waitingReport(
  req: NightRequest,
  deps: NightDeps,
  started: number,
  w: { waiting: WaitingNight; stop: WaitingStop; tasks: TaskSet | null },
): WaitingReport {
  return toWaitingReport({
    plan: waitingPlan(req, deps, started),
    tasks: w.tasks,
    stopped: w.waiting.waitsAs,
    stop: w.stop,
    backend: deps.backend.name,
    spend: deps.backend.spendSummary?.() ?? null,
    endedAt: deps.clock.now(),
  });
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
    demo: req.demo === true,
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

const outcomeAt = (deps: NightDeps, answers: AnswerSource) => ({
  backend: deps.backend.name,
  spend: deps.backend.spendSummary?.() ?? null,
  endedAt: deps.clock.now(),
  answers,
});

function logGate(logger: Logger, { budgetStop, result }: NightOutcome): void {
  logger.progress(
    budgetStop
      ? `budget: stopped by ${budgetStop.limit}`
      : `gate: ${result.baseline.toFixed(3)} -> ${result.candidate.toFixed(3)} (${result.gateAction})`,
  );
}

/**
 * An earlier invocation of this waiting night that was killed left its row running; under the
 * project's lock nothing else runs it, so it never happened (the night is recorded when it finishes).
 */
function forgetKilledInvocation(db: Db, id: number | null): void {
  const status = id === null ? null : nightStatus(db, id);
  if (id !== null && (status === 'running' || status === 'interrupted')) forgetNight(db, id);
}

/** Longest a request sent before the budget tripped can still take to answer or time out. */
const inFlightWaitMs = (config: Config): number =>
  Math.max(config.request_timeout_s, config.cli_timeout_s) * 1000 + 5000;
