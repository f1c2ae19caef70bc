/** The result of one night, in the reference's `--json` shape plus what the reference left out. */
import type { Edit } from '../core/task.js';
import type { LlmMinerStats } from '../miner/llm-miner.js';
import type { LabelStats } from '../miner/model/label-sessions.js';
import type { TripleStats } from '../miner/model/rules-from-triples.js';
import type { SpendSummary } from '../backends/llm/spend-meter.js';
import type { GateTrial, RejectedEdit } from '../trainer/gate-records.js';
import type { TaskDelta } from '../trainer/gate.js';
import type { StepRecord } from '../trainer/step-record.js';
import type { SpendPlan } from './spend-plan.js';

export type LlmMinerReport = Omit<LlmMinerStats, 'usage'>;

/**
 * Version of report.json's shape (docs/report-schema.md). Adding a field keeps the version; renaming,
 * removing or changing the meaning of one bumps it.
 */
export const REPORT_SCHEMA_VERSION = 2;

export interface HandoffReport {
  /** Requests still waiting for an answer (0 once the night finished). */
  open: number;
  /** Requests the night asked so far. */
  requests: number;
  /** The queue folder (gone once the night finished). */
  queue_dir: string;
  /** The night's exchanges as a recording for `run --replay` ('' while waiting). */
  recording: string;
}

export interface NightReport {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  night: number;
  mode: 'run' | 'dry-run';
  project: string;
  backend: string;
  started_at: number;
  ended_at: number;
  accepted: boolean;
  gate_action: string;
  no_edits_reason: string;
  /** Held-out (val) score before and after, in the gate metric; null when not finite. */
  baseline: number | null;
  candidate: number | null;
  test_score: number | null;
  holdout_leaked: boolean;
  n_sessions: number;
  n_tasks: number;
  /** Distinct tasks mined, and how many of them recurred (two or more sessions). */
  n_clusters: number;
  n_recurring: number;
  n_train: number;
  n_val: number;
  n_test: number;
  n_accepted_edits: number;
  n_rejected_edits: number;
  edits: Edit[];
  rejected_edits: RejectedEdit[];
  unmatched_edits: Edit[];
  /** Edits that tied (no gain, no harm); the next night re-tests them together with its new edits. */
  pending_edits: Edit[];
  /**
   * Mined tasks seen in two or more sessions: a readable label, their sessions, each check with the
   * session and sentence it was read from, the rubric criteria, and every correction with what it
   * became (and why). `one_off_tasks` holds the tasks seen once, in the same shape.
   */
  recurring_tasks: RecurringTaskReport[];
  one_off_tasks: RecurringTaskReport[];
  /** Older sessions the session cap left out of mining (0 when none). */
  sessions_left_out: number;
  /** What the LLM miner did (null when it did not run: offline backend, tasks file or `llm_mine: false`). */
  llm_miner: LlmMinerReport | null;
  /** The labelling pass (`llm_refine`); absent when it did not run. */
  llm_labels?: Omit<LabelStats, 'usage'> & { relabelled: number; merged: number };
  /** The rules-from-triples pass (`llm_refine`); absent when it did not run. */
  llm_rules?: Omit<TripleStats, 'usage'>;
  gate_metric: string;
  gate_no_regression: boolean;
  gate_trials: GateTrial[];
  /** The night as trainer steps (one record, the shape of a `train` history.jsonl line). */
  steps: StepRecord[];
  /** Per held-out task, before and after, for the candidate the gate decided on. */
  task_deltas: TaskDelta[];
  /** The learned rules of the skill after the night (accepted ones only). */
  learned_rules: string[];
  target_skill_path: string;
  calls: number;
  tokens_used: number;
  /** Real backends: requests, tokens, cost, cache hits, retries, redactions and invalid replies. */
  spend: SpendSummary | null;
  /**
   * '' when the night ran to its end; 'budget' when a spend limit stopped it; 'plan' when a dry-run on a
   * real backend only printed its plan (see `plan`) because spending was not confirmed;
   * 'waiting_handoff' when a handoff night queued requests and waits for their answers (see `handoff`).
   */
  stopped: '' | 'budget' | 'plan' | 'waiting_handoff';
  /** A handoff night: what waits in its queue, or (when it finished) where its recording went. */
  handoff?: HandoffReport;
  plan?: SpendPlan;
  staging_dir: string;
  proposal_id: string;
  notes: string[];
  harvest: { files_seen: number; files_parsed: number; sessions_stored: number; bad_lines: number } | null;
  tasks_file?: string;
  tasks_reviewed?: boolean;
  /** The memory pass (`evolve_memory`); null when it did not run. Its edits are in `edits` with target "memory". */
  memory?: MemoryPassReport | null;
  /** Per-skill groups (`multi_skill_fanout`); absent when fan-out is off. */
  skill_groups?: SkillGroupReport[];
}

export interface RecurringTaskReport {
  id: string;
  label: string;
  intent: string;
  occurrences: number;
  sessions: string[];
  /** `by: "model"` marks a check the model read from the correction (validated on the session's answers). */
  checks: Array<{ op: string; arg?: string | number; session: string; sentence: string; by?: 'model' }>;
  criteria: string[];
  corrections: Array<{
    session: string;
    sentence: string;
    /** `checks`: it gave checks; `rubric`: kept as a rubric criterion; `none`: see `reason`. */
    result: 'checks' | 'rubric' | 'none';
    reason: string;
  }>;
}

/** One per-skill group of `multi_skill_fanout`. */
export interface SkillGroupReport {
  skill_name: string;
  /** consolidated (trained), skipped (missing, ambiguous or rejected skill) or failed (an error). */
  status: 'consolidated' | 'skipped' | 'failed';
  reason: string;
  live_path: string;
  n_tasks: number;
  accepted: boolean;
  gate_action: string;
  baseline: number | null;
  candidate: number | null;
  edits: Edit[];
  rejected_edits: RejectedEdit[];
}

export interface MemoryPassReport {
  /** The memory document trained (CLAUDE.md, AGENTS.md, ...). */
  target_path: string;
  /** 'config' (memory_target) or the agent whose sessions chose it. */
  chosen_by: string;
  accepted: boolean;
  gate_action: string;
  baseline: number | null;
  candidate: number | null;
  no_edits_reason: string;
  learned_rules: string[];
}

/** JSON cannot carry NaN or Infinity: they become null. */
export const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * The one way every output counts what a night mined: task instances (one per session replayed) of
 * tasks (distinct kinds), of which `recurring` were seen in two or more sessions.
 */
export function taskCountText(instances: number, tasks: number, recurring: number): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const replayed = plural(instances, 'task instance');
  return tasks > 0 ? `${replayed} of ${plural(tasks, 'task')} (${recurring} recurring)` : replayed;
}

/** The split sizes as every output prints them; a leaked holdout says that val reuses train. */
export function splitText(r: Pick<NightReport, 'n_train' | 'n_val' | 'n_test' | 'holdout_leaked'>): string {
  const sizes = `train ${r.n_train}, val ${r.n_val}${r.n_test ? `, test ${r.n_test}` : ''}`;
  return r.holdout_leaked ? `${sizes} (the same tasks: none was held out)` : sizes;
}

/** Why a night without held-out tasks cannot accept anything, and what changes it. */
export const LEAKED_HOLDOUT_TEXT =
  'no task was held out, so the gate scored the very tasks it trained on and this night can accept nothing; it needs a task seen in two or more sessions (or more tasks) and a val fraction above 0';
