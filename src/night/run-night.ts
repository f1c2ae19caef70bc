/**
 * One night, top to bottom: harvest → mine → split → train (replay, reflect, gate) → stage a proposal.
 * `dry-run` computes the same night but records nothing and writes nothing into the project.
 */
import type { HarvestContext } from '../../harvesters/types.js';
import type { Backend } from '../backends/types.js';
import type { Clock } from '../core/clock.js';
import { AnswerPendingError, BudgetExhaustedError, InputError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { Logger } from '../core/logger.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import type { Env } from '../config/paths.js';
import type { Db } from '../store/db.js';
import {
  pendingEdits,
  rejectedEdits,
  recordRejectedEdit,
  savePendingEdits,
  upsertTasks,
} from '../store/learning-repo.js';
import {
  countNights,
  failNight,
  forgetNight,
  nightStatus,
  finishNight,
  insertReplays,
  startNight,
} from '../store/nights-repo.js';
import { recordNightProposal } from '../store/proposals-repo.js';
import { runNightStep, type NightStepResult } from './night-step.js';
import { batchScore } from '../trainer/gate.js';
import { learnedRules } from '../trainer/learned-block.js';
import { decisiveDeltas, nightStepRecord } from './night-step-record.js';
import { stageProposal, type Checkpoint } from '../../proposals/index.js';
import { REPORT_SCHEMA_VERSION, finiteOrNull, taskCountText, type NightReport } from './night-report.js';
import { renderReportMd } from './render-report.js';
import { loadSkillTarget } from './skill-target.js';
import { assertNightTargets, loadCheckedMemoryTarget } from './target-check.js';
import { combineSteps, memoryReport, stageTargets } from './passes.js';
import { planFanout, trainGroups } from './fanout.js';
import { addUsage, zeroUsage, type Usage } from '../core/usage.js';
import { lockProject } from './lock.js';
import type { HandoffQueue } from '../backends/handoff/handoff-queue.js';
import { emptyTaskSet, finishHandoff, waitingSummary, type HandoffState } from './handoff-night.js';
import { planSpend } from './spend-plan.js';
import { isRecurring, llmMinerReport, llmRefineReport, nightTasks, type TaskSet } from './night-tasks.js';

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
}

export async function runNight(req: NightRequest, deps: NightDeps): Promise<NightReport> {
  const started = req.handoff?.state?.started_at ?? deps.clock.now();
  const record = req.mode === 'run';
  const lock = record ? lockProject(deps.home, req.project, deps.clock.now()) : null;
  let nightId: number | null = null;
  let mined: TaskSet | null = null;
  let skillPath = '';
  if (req.handoff && lock) forgetKilledInvocation(deps.db, req.handoff.queue);
  const nightNumber = countNights(deps.db, req.project) + 1;
  try {
    await assertNightTargets(req.project, req.config);
    const skill = loadSkillTarget(req.project, req.config);
    skillPath = skill.livePath;
    const set = await nightTasks(req, deps, started);
    mined = set;
    deps.logger.progress(`mine: ${taskCountText(set.tasks.length, set.nClusters, set.nRecurring)}`);
    const pending = pendingEdits(deps.db, req.project);
    if (req.planOnly) {
      const report = buildReport(req, deps, set, idleStep(set.tasks), nightNumber, started, skill.livePath);
      report.stopped = 'plan';
      report.plan = planSpend(set.tasks, req.config, pending.length);
      return report;
    }
    if (record) nightId = startNight(deps.db, req.project, deps.backend.name, started);
    if (nightId !== null) req.handoff?.queue.rememberNight(nightId);

    if (!req.config.evolve_skill && !req.config.evolve_memory) {
      throw new InputError('evolve_skill and evolve_memory are both false: a night has nothing to train');
    }
    const memory = req.config.evolve_memory
      ? await loadCheckedMemoryTarget(
          req.project,
          req.config,
          set.tasks.flatMap((t) => t.source_sessions),
        )
      : null;
    const fanout = req.config.multi_skill_fanout
      ? planFanout(set.tasks, req.config, req.project, deps.userHome, skill.livePath)
      : null;
    const done: Array<{ phase: string; tasks: number }> = [];
    let baselineScore: number | null = null;
    const trainPass = (
      target: 'skill' | 'memory',
      doc: string,
      other: string,
      editBudget: number,
      tasks: TaskRecord[] = fanout?.managedTasks ?? set.tasks,
    ) =>
      runNightStep({
        target,
        tasks,
        skill: doc,
        memory: other,
        backend: deps.backend,
        rejected: rejectedEdits(deps.db, req.project),
        pending: pending.filter((e) => e.target === target),
        options: {
          editBudget,
          rollouts: req.config.dream_rollouts,
          workers: req.config.workers,
          metric: { metric: req.config.gate_metric, mixedWeight: req.config.gate_mixed_weight },
          noRegression: req.config.gate_no_regression,
          preferences: req.config.preferences,
        },
        onReplay: (phase, replayedDoc, results) => {
          deps.logger.progress(`replay ${target} ${phase}: ${results.length} tasks`);
          done.push({ phase: `${target} ${phase}`, tasks: results.length });
          if (target === 'skill' && phase === 'baseline_val')
            baselineScore = batchScore(results, gateMetric(req.config));
          if (nightId === null) return;
          const docHash = sha256Hex(replayedDoc).slice(0, 16);
          insertReplays(
            deps.db,
            nightId,
            results.map((r) => ({
              phase,
              taskId: r.task.id,
              split: r.task.split,
              docHash,
              sample: 0,
              response: r.response,
              hard: r.hard,
              soft: r.soft,
              rationale: r.rationale,
              tokens: r.tokens,
              latencyMs: r.latencyMs,
            })),
          );
        },
      });
    let skillEpoch: NightStepResult | null = null;
    let memoryEpoch: NightStepResult | null = null;
    let groups: Awaited<ReturnType<typeof trainGroups>> = [];
    let stoppedBy = '';
    try {
      skillEpoch = req.config.evolve_skill
        ? await trainPass('skill', skill.workingText, memory?.liveText ?? '', req.config.edit_budget)
        : null;
      const skillAfter = skillEpoch?.accepted ? skillEpoch.skill : skill.workingText;
      // edit_budget bounds the whole night: the memory pass gets what the skill pass left.
      memoryEpoch = memory
        ? await trainPass(
            'memory',
            memory.liveText ?? '',
            skillAfter,
            Math.max(0, req.config.edit_budget - (skillEpoch?.edits.length ?? 0)),
          )
        : null;
      // Each skill group has its own document, so its own edit_budget; the memory stays read-only.
      groups = fanout
        ? await trainGroups(fanout, req.project, (tasks, doc) =>
            trainPass('skill', doc, memory?.liveText ?? '', req.config.edit_budget, tasks),
          )
        : [];
    } catch (err) {
      if (!(err instanceof BudgetExhaustedError)) throw err;
      // The budget ran out mid-night: nothing of this night is kept or staged, not even a finished pass.
      stoppedBy = err.limit;
      skillEpoch = null;
      memoryEpoch = null;
      groups = [];
    }
    // Requests sent before a budget stop still answer and bill: the report counts them (bounded wait).
    await deps.backend.settleSpend?.(inFlightWaitMs(req.config));
    const epoch = stoppedBy ? idleStep(set.tasks) : combineSteps(skillEpoch, memoryEpoch, skill.workingText);
    if (stoppedBy) {
      epoch.noEditsReason = `stopped by the budget (${stoppedBy}) before the gate decided`;
      if (baselineScore !== null) epoch.baseline = epoch.candidate = baselineScore;
    }
    for (const g of groups) if (g.epoch) addUsage(epoch.usage, g.epoch.usage);
    deps.logger.progress(
      stoppedBy
        ? `budget: stopped by ${stoppedBy}`
        : `gate: ${epoch.baseline.toFixed(3)} -> ${epoch.candidate.toFixed(3)} (${epoch.gateAction})`,
    );

    const report = buildReport(req, deps, set, epoch, nightNumber, started, skill.livePath);
    report.memory = memory && memoryEpoch ? memoryReport(memory, memoryEpoch) : null;
    const targets = [
      ...stageTargets(skill, skillEpoch, memory, memoryEpoch),
      ...groups.flatMap((g) => (g.target ? [g.target] : [])),
    ];
    if (fanout) {
      report.skill_groups = groups.map((g) => g.report);
      for (const g of groups) {
        if (g.report.status !== 'consolidated') {
          report.notes.push(`skipped skill ${g.report.skill_name}: ${g.report.reason}`);
        }
      }
    }
    if (stoppedBy) {
      report.stopped = 'budget';
      report.gate_action = 'stopped_budget';
      report.notes.push(
        `the night's budget (${stoppedBy}) ran out; replays finished before it: ${done.map((d) => `${d.phase} ${d.tasks}`).join(', ') || 'none'}. Nothing was staged.`,
      );
    }
    if (req.handoff) report.handoff = finishHandoff(req.handoff.queue, deps);
    if (record && nightId !== null) {
      const now = deps.clock.now();
      if (!stoppedBy) {
        for (const e of epoch.rejectedEdits)
          recordRejectedEdit(deps.db, req.project, e, e.delta, nightId, now);
        savePendingEdits(deps.db, req.project, epoch.pendingEdits, now);
      }
      upsertTasks(deps.db, set.clusters, now);
      if (!stoppedBy && targets.length > 0) {
        const staged = await stageProposal({
          projectDir: req.project,
          night: nightNumber,
          now,
          targets,
          ...(fanout ? { allowedRoots: fanout.roots } : {}),
          reportMd: renderReportMd({ ...report, staging_dir: '(this folder)' }),
          reportJson: report,
          nightId,
          ...(req.stageCheckpoint ? { checkpoint: req.stageCheckpoint } : {}),
        });
        report.staging_dir = staged.dir;
        report.proposal_id = staged.id;
        // A kill before this leaves the folder whole; the next command adds the row from its manifest.
        recordNightProposal(deps.db, {
          id: staged.id,
          project: req.project,
          nightId,
          dir: staged.dir,
          createdAt: now,
          targets: targets.map((t) => t.livePath),
        });
      }
      report.ended_at = deps.clock.now();
      finishNight(
        deps.db,
        nightId,
        {
          nSessions: report.n_sessions,
          nTasks: report.n_tasks,
          baseline: report.baseline,
          candidate: report.candidate,
          accepted: report.accepted,
          gateAction: report.gate_action,
          stopped: report.stopped,
          calls: report.calls,
          tokens: report.tokens_used,
          inputTokens: report.spend?.input_tokens ?? 0,
          outputTokens: report.spend?.output_tokens ?? 0,
          costUsd: report.spend?.cost_usd ?? 0,
          cacheHits: report.spend?.cache_hits ?? 0,
        },
        report.ended_at,
      );
    }
    return report;
  } catch (err) {
    if (err instanceof AnswerPendingError && req.handoff) {
      // Not a night yet: it is recorded once, when its last answer lets it finish.
      if (nightId !== null) forgetNight(deps.db, nightId);
      const tasks = mined ?? emptyTaskSet();
      const report = buildReport(req, deps, tasks, idleStep(tasks.tasks), nightNumber, started, skillPath);
      report.stopped = 'waiting_handoff';
      report.handoff = waitingSummary(req.handoff.queue);
      return report;
    }
    if (nightId !== null) failNight(deps.db, nightId, (err as Error).message, deps.clock.now());
    throw err;
  } finally {
    lock?.release();
  }
}

/**
 * An earlier invocation of this handoff night that was killed left its row running; under the
 * project's lock nothing else runs it, so it never happened (the night is recorded when it finishes).
 */
function forgetKilledInvocation(db: Db, queue: HandoffQueue): void {
  const id = queue.startedNight();
  const status = id === null ? null : nightStatus(db, id);
  if (id !== null && (status === 'running' || status === 'interrupted')) forgetNight(db, id);
}

/** What mining asked the model for (LLM miner and refine pass), for backends without a spend meter. */
function miningUsage(set: TaskSet): Usage {
  const usage = zeroUsage();
  if (set.llmMiner) addUsage(usage, set.llmMiner.usage);
  if (set.llmRefine) {
    addUsage(usage, set.llmRefine.labels.usage);
    addUsage(usage, set.llmRefine.rules.usage);
  }
  return usage;
}

function buildReport(
  req: NightRequest,
  deps: NightDeps,
  set: TaskSet,
  epoch: NightStepResult,
  night: number,
  started: number,
  skillPath: string,
): NightReport {
  const notes = [...set.notes];
  if (set.tasks.length === 0) notes.push('no tasks mined — nothing to train');
  const spend = deps.backend.spendSummary?.() ?? null;
  const mining = miningUsage(set);
  if (spend && spend.invalid_replies > 0)
    notes.push(`${spend.invalid_replies} model replies stayed invalid JSON after a repair request`);
  if (spend && spend.unjudged_answers > 0)
    notes.push(
      `${spend.unjudged_answers} answers were left out of their scores: the judge gave no valid reply`,
    );
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    night,
    mode: req.mode,
    project: req.project,
    backend: deps.backend.name,
    started_at: started,
    ended_at: deps.clock.now(),
    accepted: epoch.accepted,
    gate_action: set.tasks.length === 0 ? 'no_tasks' : epoch.gateAction,
    no_edits_reason: epoch.noEditsReason,
    baseline: finiteOrNull(epoch.baseline),
    candidate: finiteOrNull(epoch.candidate),
    test_score: epoch.testScore === null ? null : finiteOrNull(epoch.testScore),
    holdout_leaked: epoch.holdoutLeaked,
    n_sessions: set.nSessions,
    n_tasks: set.tasks.length,
    n_clusters: set.nClusters,
    n_recurring: set.nRecurring,
    n_train: epoch.counts.train,
    n_val: epoch.counts.val,
    n_test: epoch.counts.test,
    n_accepted_edits: epoch.edits.length,
    n_rejected_edits: epoch.rejectedEdits.length,
    edits: epoch.edits,
    rejected_edits: epoch.rejectedEdits,
    unmatched_edits: epoch.unmatchedEdits,
    pending_edits: epoch.pendingEdits,
    recurring_tasks: set.taskSummaries.filter(isRecurring),
    one_off_tasks: set.taskSummaries.filter((t) => !isRecurring(t)),
    sessions_left_out: set.sessionsLeftOut,
    llm_miner: set.llmMiner ? llmMinerReport(set.llmMiner) : null,
    ...(set.llmRefine ? llmRefineReport(set.llmRefine) : {}),
    gate_metric: req.config.gate_metric,
    gate_no_regression: req.config.gate_no_regression,
    gate_trials: epoch.trials,
    steps: set.tasks.length === 0 ? [] : [nightStepRecord(epoch, night, req.config.edit_budget)],
    task_deltas: decisiveDeltas(epoch),
    learned_rules: learnedRules(epoch.skill),
    target_skill_path: skillPath,
    // A real backend's meter saw every request (miner, replays, reflection, retries); the mock counts calls.
    calls: spend ? spend.calls : epoch.usage.calls + mining.calls,
    tokens_used: spend
      ? spend.input_tokens + spend.output_tokens
      : epoch.usage.inputTokens + epoch.usage.outputTokens + mining.inputTokens + mining.outputTokens,
    spend,
    stopped: '',
    staging_dir: '',
    proposal_id: '',
    notes,
    harvest: set.harvest
      ? {
          files_seen: set.harvest.filesSeen,
          files_parsed: set.harvest.filesParsed,
          sessions_stored: set.harvest.sessionsStored,
          bad_lines: set.harvest.badLines,
        }
      : null,
    ...(req.tasksFile ? { tasks_file: req.tasksFile, tasks_reviewed: set.reviewed ?? false } : {}),
  };
}

/** The result of a night that replayed nothing (plan only, or stopped before the gate decided). */
function idleStep(tasks: TaskRecord[]): NightStepResult {
  return {
    accepted: false,
    gateAction: 'reject',
    noEditsReason: '',
    baseline: Number.NaN,
    candidate: Number.NaN,
    holdoutLeaked: false,
    skill: '',
    edits: [],
    rejectedEdits: [],
    unmatchedEdits: [],
    trials: [],
    pendingEdits: [],
    testScore: null,
    counts: {
      train: tasks.filter((t) => t.split === 'train').length,
      val: tasks.filter((t) => t.split === 'val').length,
      test: tasks.filter((t) => t.split === 'test').length,
    },
    usage: { calls: 0, inputTokens: 0, outputTokens: 0 },
  };
}

/** Longest a request sent before the budget tripped can still take to answer or time out. */
const inFlightWaitMs = (config: Config): number =>
  Math.max(config.request_timeout_s, config.cli_timeout_s) * 1000 + 5000;

const gateMetric = (config: Config) => ({
  metric: config.gate_metric,
  mixedWeight: config.gate_mixed_weight,
});
