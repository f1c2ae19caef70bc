/**
 * The one place a night's outcome becomes its report (report.json, and through it report.md, the
 * terminal summary and `--json`). Built whole, never patched afterwards.
 */
import { addUsage, zeroUsage, type Usage } from '../core/usage.js';
import { learnedRules } from '../trainer/learned-block.js';
import { decisiveDeltas, nightStepRecord } from './night-step-record.js';
import { idleStep, type NightOutcome } from './night-outcome.js';
import {
  REPORT_SCHEMA_VERSION,
  finiteOrNull,
  type NightReport,
  type RequestsReport,
  type WaitingReport,
} from './night-report.js';
import type { NightStepResult } from './night-step.js';
import { isRecurring, llmMinerReport, llmRefineReport, type TaskSet } from './night-tasks.js';
import type { NightPlan } from './night-plan.js';
import { regressedTasks } from './regressions.js';
import type { WaitingStop } from './waiting-night.js';
import type { SpendSummary } from '../backends/llm/spend-meter.js';

/** What only the end of a recording night knows: when it ended, and where its proposal went. */
export interface ReportClosing {
  endedAt?: number;
  stagingDir?: string;
  proposalId?: string;
  /** Said once the proposal's place is known (an unchanged night stages nothing new). */
  notes?: string[];
}

const STOPPED = { plan: 'plan', batch_failed: 'batch_failed' } as const;

export function toReport(outcome: NightOutcome, closing: ReportClosing = {}): NightReport {
  const { plan, result: step, spend } = outcome;
  const set = plan.tasks;
  const mining = miningUsage(set);
  const noTasks = set.tasks.length === 0;
  const named = plan.targets?.packages?.skills[0];
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    night: plan.night,
    mode: plan.mode,
    project: plan.project,
    backend: outcome.backend,
    started_at: plan.started,
    ended_at: closing.endedAt ?? outcome.endedAt,
    accepted: step.accepted,
    gate_action: outcome.budgetStop ? 'stopped_budget' : noTasks ? 'no_tasks' : step.gateAction,
    no_edits_reason: step.noEditsReason,
    baseline: finiteOrNull(step.baseline),
    candidate: finiteOrNull(step.candidate),
    test_score: step.testScore === null ? null : finiteOrNull(step.testScore),
    test:
      step.testBefore === null || step.testScore === null
        ? null
        : { before: finiteOrNull(step.testBefore), after: finiteOrNull(step.testScore) },
    holdout_leaked: step.holdoutLeaked,
    lift: outcome.lift,
    regressed_tasks: outcome.budgetStop ? [] : regressedTasks(step, outcome.lift),
    n_sessions: set.nSessions,
    n_tasks: set.tasks.length - step.counts.unscored,
    n_unjudged: (set.unjudged ?? 0) + step.counts.unscored,
    n_one_off: set.oneOff ?? 0,
    n_clusters: set.nClusters,
    n_recurring: set.nRecurring,
    n_train: step.counts.train,
    n_val: step.counts.val,
    n_test: step.counts.test,
    n_accepted_edits: step.edits.length,
    n_rejected_edits: step.rejectedEdits.length,
    edits: step.edits,
    rejected_edits: step.rejectedEdits,
    unmatched_edits: step.unmatchedEdits,
    pending_edits: step.pendingEdits,
    recurring_tasks: set.taskSummaries.filter(isRecurring),
    one_off_tasks: set.taskSummaries.filter((t) => !isRecurring(t)),
    ...(set.lessons ? { lessons: set.lessons } : {}),
    sessions_left_out: set.sessionsLeftOut,
    llm_miner: set.llmMiner ? llmMinerReport(set.llmMiner) : null,
    ...(set.llmRefine ? llmRefineReport(set.llmRefine) : {}),
    gate_metric: plan.config.gate_metric,
    gate_no_regression: plan.config.gate_no_regression,
    gate_trials: step.trials,
    steps: noTasks ? [] : [nightStepRecord(step, plan.night, plan.config.edit_budget)],
    task_deltas: decisiveDeltas(step),
    // A skill named with --skill has no learned block: its edits are in skill_packages.
    learned_rules: named ? [] : learnedRules(step.skill),
    target_skill_path: named?.pkg.skill.livePath ?? plan.skill.livePath,
    // A real backend's meter saw every request (miner, replays, reflection, retries); the mock counts calls.
    calls: spend ? spend.calls : step.usage.calls + mining.calls,
    tokens_used: spend
      ? spend.input_tokens + spend.output_tokens
      : step.usage.inputTokens + step.usage.outputTokens + mining.inputTokens + mining.outputTokens,
    requests: requestsReport(step.requests),
    spend,
    stopped: outcome.state === 'trained' ? (outcome.budgetStop ? 'budget' : '') : STOPPED[outcome.state],
    staging_dir: closing.stagingDir ?? '',
    proposal_id: closing.proposalId ?? '',
    notes: [...reportNotes(outcome), ...(closing.notes ?? [])],
    harvest: set.harvest
      ? {
          files_seen: set.harvest.filesSeen,
          files_parsed: set.harvest.filesParsed,
          sessions_stored: set.harvest.sessionsStored,
          bad_lines: set.harvest.badLines,
        }
      : null,
    ...(plan.tasksFile !== null ? { tasks_file: plan.tasksFile, tasks_reviewed: set.reviewed ?? false } : {}),
    ...(plan.tasksFrom !== null ? { tasks_from: plan.tasksFrom, tasks_reviewed: set.reviewed ?? false } : {}),
    ...outcome.sections,
    ...outcome.answers,
    ...(outcome.state === 'plan' ? { plan: plan.spend } : {}),
  };
}

/**
 * What an invocation that stops to wait says: the mining that ran (once it finished) and what the
 * night waits for, never a gate action, score or note of a phase that has not run.
 */
export function toWaitingReport(w: {
  plan: Pick<NightPlan, 'night' | 'project' | 'started'>;
  /** The night's tasks once its mining finished; null while it mines. */
  tasks: TaskSet | null;
  stopped: WaitingReport['stopped'];
  stop: WaitingStop;
  backend: string;
  spend: SpendSummary | null;
  endedAt: number;
}): WaitingReport {
  const set = w.tasks;
  const splits = set ? idleStep(set.tasks).counts : null;
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    night: w.plan.night,
    mode: 'run',
    project: w.plan.project,
    backend: w.backend,
    started_at: w.plan.started,
    ended_at: w.endedAt,
    stopped: w.stopped,
    waiting: w.stop.waiting,
    ...(set && splits
      ? {
          n_sessions: set.nSessions,
          n_tasks: set.tasks.length,
          n_unjudged: set.unjudged ?? 0,
          n_clusters: set.nClusters,
          n_recurring: set.nRecurring,
          n_train: splits.train,
          n_val: splits.val,
          n_test: splits.test,
        }
      : {}),
    spend: w.spend,
    staging_dir: '',
    notes: set ? [...set.notes] : [],
    ...w.stop.source,
  };
}

/** The step's request tallies in the report's words. */
function requestsReport({ replays, reflect }: NightStepResult['requests']): RequestsReport {
  const out: RequestsReport = { replays: {}, reflect };
  for (const [phase, t] of Object.entries(replays))
    out.replays[phase] = {
      attempts: t.attempts,
      judges: t.judges,
      reused_answers: t.reusedAnswers,
      reused_verdicts: t.reusedVerdicts,
    };
  return out;
}

function reportNotes({ plan, spend, passes, budgetStop }: NightOutcome): string[] {
  const notes = [...plan.tasks.notes];
  if (plan.tasks.tasks.length === 0) notes.push('no tasks mined — nothing to train');
  if (spend && spend.invalid_replies > 0)
    notes.push(`${spend.invalid_replies} model replies stayed invalid JSON after a repair request`);
  if (spend && spend.unjudged_answers > 0)
    notes.push(
      `${spend.unjudged_answers} answers were left out of their scores: the judge gave no valid reply`,
    );
  for (const p of passes) notes.push(...p.notes);
  if (budgetStop) {
    const replays = budgetStop.replays.map((d) => `${d.phase} ${d.tasks}`).join(', ') || 'none';
    notes.push(
      `the night's budget (${budgetStop.limit}) ran out; replays finished before it: ${replays}. Nothing was staged.`,
    );
  }
  return notes;
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
