/**
 * The result of one night, in the reference's `--json` shape plus what the reference left out. The
 * zod schema is the definition: the TypeScript type is inferred from it, and `proposals` reads a staged
 * report.json back through it (older reports' missing fields get their defaults). Sub-records this
 * module does not own (edits, gate trials, step records, spend) are checked to be objects and typed by
 * their owners' interfaces.
 */
import { z } from 'zod';
import { NEGATIVE_ACTION_OPS } from '../core/action-checks.js';
import { forbiddenTerm } from '../core/negative-check.js';
import type { Check, Edit } from '../core/task.js';
import type { LlmMinerStats } from '../miner/llm-miner.js';
import type { LabelStats } from '../miner/model/label-sessions.js';
import type { TripleStats } from '../miner/model/rules-from-triples.js';
import type { SpendSummary } from '../backends/llm/spend-meter.js';
import type { GateAction, GateTrial, RejectedEdit } from '../trainer/gate-records.js';
import type { TaskDelta } from '../trainer/gate.js';
import type { StepRecord } from '../trainer/step-record.js';
import type { Lift } from '../lift/paired.js';
import type { SpendPlan } from './spend-plan.js';
import type { SendsSummary } from './explain-sends.js';

export type LlmMinerReport = Omit<LlmMinerStats, 'usage'>;

/**
 * Version of report.json's shape (docs/report-schema.md). Adding a field keeps the version; renaming,
 * removing or changing the meaning of one bumps it.
 */
export const REPORT_SCHEMA_VERSION = 2;

const isRecord = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A record whose shape another module owns: checked to be an object, typed as `T`. */
const record = <T>() => z.custom<T>(isRecord, { message: 'expected an object' });
const records = <T>() => z.array(record<T>()).default([]);
const score = z.number().nullable().default(null);

const GATE_ACTIONS = [
  'accept_new_best',
  'reject',
  'reject_unverified',
] as const satisfies readonly GateAction[];
/** The gate's decision, or the night's own when no gate ran: no tasks, or the budget stopped it. */
export const nightGateActionSchema = z.enum([...GATE_ACTIONS, 'no_tasks', 'stopped_budget']);
export type NightGateAction = z.infer<typeof nightGateActionSchema>;

export const handoffReportSchema = z.object({
  /** Requests still waiting for an answer (0 once the night finished). */
  open: z.number(),
  /** Requests the night asked so far. */
  requests: z.number(),
  /** The queue folder (gone once the night finished). */
  queue_dir: z.string(),
  /** The night's exchanges as a recording for `run --replay` ('' while waiting). */
  recording: z.string().default(''),
});
export type HandoffReport = z.infer<typeof handoffReportSchema>;

export const batchReportSchema = z.object({
  /** The night's batches so far: provider batch id, backend, state, attempt (2 = resubmitted), requests. */
  batches: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      state: z.string(),
      attempt: z.number(),
      requests: z.number(),
    }),
  ),
  /** Requests the night batched, and how many have their answer. */
  requests: z.number(),
  answered: z.number(),
  /** The share of the interactive price the spend was counted at (0.5: half). */
  price_factor: z.number(),
  /** Why the night ended without finishing ('' unless `stopped` is 'batch_failed'). */
  failed: z.string().default(''),
  state_dir: z.string(),
});
export type BatchReport = z.infer<typeof batchReportSchema>;

export const recurringTaskReportSchema = z.object({
  id: z.string(),
  label: z.string(),
  intent: z.string(),
  occurrences: z.number(),
  sessions: z.array(z.string()),
  /** `by: "model"` marks a check the model read from the correction (validated on the session's answers). */
  checks: z.array(
    z.object({
      op: z.string(),
      arg: z.union([z.string(), z.number()]).optional(),
      any_of: z.array(z.string()).optional(),
      session: z.string(),
      sentence: z.string(),
      by: z.literal('model').optional(),
    }),
  ),
  criteria: z.array(z.string()),
  corrections: z.array(
    z.object({
      session: z.string(),
      sentence: z.string(),
      /** `checks`: it gave checks; `rubric`: kept as a rubric criterion; `none`: see `reason`. */
      result: z.enum(['checks', 'rubric', 'none']),
      reason: z.string(),
    }),
  ),
});
export type RecurringTaskReport = z.infer<typeof recurringTaskReportSchema>;

/**
 * A lesson as every output shows it (`lessons --json`, `harvest --json`, report.json): the rule in the
 * user's words, where it was said (session, prompt index, the prompt), and how a night judges it (its
 * checks, or its rule as a criterion when no check tells the answers apart).
 */
export const lessonReportSchema = z.object({
  id: z.string(),
  rule: z.string(),
  project: z.string(),
  kind: z.string(),
  /** Distinct sessions it was said in. */
  support: z.number(),
  evidence: z.array(
    z.object({ session: z.string(), turn: z.number(), sentence: z.string(), signals: z.array(z.string()) }),
  ),
  checks: z.array(record<Check>()),
  criterion: z.string().nullable(),
  origin: z.string(),
  /** Set when a later lesson said the opposite: it judges nothing. */
  retired_by: z.string().optional(),
});
export type LessonReport = z.infer<typeof lessonReportSchema>;

/**
 * A lesson's check as people read it: `op "arg"`, a check on actions as what the answer must never do
 * (`never runs "npm"`), a negative word check as the word it forbids.
 */
export function checkText(check: { op: string; arg?: string | number }): string {
  if (check.op.startsWith('not_') && check.arg !== undefined && NEGATIVE_ACTION_OPS.has(check.op))
    return `never ${check.op.slice('not_'.length)} ${JSON.stringify(check.arg)}`;
  const avoided = forbiddenTerm(check);
  if (avoided !== null) return `never mentions ${JSON.stringify(avoided)} (${check.op})`;
  return check.arg === undefined ? check.op : `${check.op} ${JSON.stringify(check.arg)}`;
}

/** One per-skill group of `multi_skill_fanout`. */
export const skillGroupReportSchema = z.object({
  skill_name: z.string(),
  /** consolidated (trained), skipped (missing, ambiguous or rejected skill) or failed (an error). */
  status: z.enum(['consolidated', 'skipped', 'failed']),
  reason: z.string(),
  live_path: z.string(),
  n_tasks: z.number(),
  accepted: z.boolean(),
  /** '' when the group was not trained. */
  gate_action: z.union([z.enum(GATE_ACTIONS), z.literal('')]),
  baseline: score,
  candidate: score,
  edits: records<Edit>(),
  rejected_edits: records<RejectedEdit>(),
});
export type SkillGroupReport = z.infer<typeof skillGroupReportSchema>;

/** One skill named with `--skill` / `skills:`, trained whole (SKILL.md and its references). */
export const skillPackageReportSchema = z.object({
  skill_name: z.string(),
  live_path: z.string(),
  n_tasks: z.number(),
  accepted: z.boolean(),
  gate_action: z.enum(GATE_ACTIONS),
  reason: z.string(),
  baseline: score,
  candidate: score,
  edits: records<Edit>(),
  rejected_edits: records<RejectedEdit>(),
  /** The package's files the proposal changes (`SKILL.md`, `references/x.md`). */
  changed_files: z.array(z.string()),
  /** Files the target saw: SKILL.md and the inlined references; scripts are only named. */
  trained_files: z.array(z.string()),
  scripts: z.array(z.string()),
  /** SKILL.md body's estimated tokens when the night started and as proposed, and its budget. */
  tokens_before: z.number(),
  tokens_after: z.number(),
  token_budget: z.number(),
});
export type SkillPackageReport = z.infer<typeof skillPackageReportSchema>;

export const memoryPassReportSchema = z.object({
  /** The memory document trained (CLAUDE.md, AGENTS.md, ...). */
  target_path: z.string(),
  /** 'config' (memory_target), the agent whose sessions taught its lessons, or 'shared' (several agents). */
  chosen_by: z.string(),
  accepted: z.boolean(),
  gate_action: z.enum(GATE_ACTIONS),
  baseline: score,
  candidate: score,
  no_edits_reason: z.string().default(''),
  learned_rules: z.array(z.string()).default([]),
});
export type MemoryPassReport = z.infer<typeof memoryPassReportSchema>;

const replayRequestsSchema = z.object({
  attempts: z.number(),
  judges: z.number(),
  reused_answers: z.number(),
  reused_verdicts: z.number(),
});

/**
 * What the trainer asked the backend, by purpose: per replay phase (baseline_val, train, gate_trial,
 * selection_trial, prune_trial, final_test) the attempts and model verdicts asked, and those taken
 * from the night's earlier replays of the same documents instead; and the reflection requests.
 */
export const requestsReportSchema = z.object({
  replays: z.record(z.string(), replayRequestsSchema).default({}),
  reflect: z.number().default(0),
});
export type RequestsReport = z.infer<typeof requestsReportSchema>;

/**
 * A task the candidate made worse, with both answers (clipped): a validation task of the trial the
 * gate decided on, or a task of the lift's comparison (the held-out test, or validation without one).
 */
export const regressedTaskSchema = z.object({
  task_id: z.string(),
  tags: z.array(z.string()).default([]),
  split: z.enum(['validation', 'test']),
  before: score,
  after: score,
  answer_before: z.string().default(''),
  answer_after: z.string().default(''),
});
export type RegressedTaskReport = z.infer<typeof regressedTaskSchema>;

const harvestReportSchema = z.object({
  files_seen: z.number(),
  files_parsed: z.number(),
  sessions_stored: z.number(),
  bad_lines: z.number(),
});

/** report.json. The key order is the order the night writes them (tests and users compare the files). */
export const nightReportSchema = z.object({
  schema_version: z.number().default(REPORT_SCHEMA_VERSION),
  night: z.number(),
  mode: z.enum(['run', 'dry-run']).default('run'),
  project: z.string(),
  backend: z.string().default(''),
  started_at: z.number(),
  ended_at: z.number(),
  accepted: z.boolean().default(false),
  gate_action: nightGateActionSchema,
  no_edits_reason: z.string().default(''),
  /** Validation score before and after, in the gate metric (what the gate decided on); null when not finite. */
  baseline: score,
  candidate: score,
  /** The held-out test's score with the final skill (`test.after`); null without test tasks. */
  test_score: score,
  /**
   * The held-out test (split `test`: tasks neither reflection nor the gate ever saw), scored with the
   * skill the night started from and with the one it ended with; null without test tasks.
   */
  test: z.object({ before: score, after: score }).nullable().default(null),
  holdout_leaked: z.boolean().default(false),
  /**
   * The paired comparison of the skill the night started from and the one it proposes, on the same
   * tasks and samples: the held-out test, else the validation tasks (`split`); null when nothing changed.
   */
  lift: record<Lift>().nullable().default(null),
  /** Every task the candidate made worse, with both of its answers (clipped). */
  regressed_tasks: z.array(regressedTaskSchema).default([]),
  n_sessions: z.number().default(0),
  n_tasks: z.number().default(0),
  /** Task instances not replayed: no judge can tell their answers apart (no check, no criterion). */
  n_unjudged: z.number().default(0),
  /** Mined task instances not replayed: alone in their lesson and kind (a one-off), nothing learned from one shows on another. */
  n_one_off: z.number().default(0),
  /** Distinct tasks mined, and how many of them recurred (two or more sessions). */
  n_clusters: z.number().default(0),
  n_recurring: z.number().default(0),
  n_train: z.number().default(0),
  n_val: z.number().default(0),
  n_test: z.number().default(0),
  n_accepted_edits: z.number().default(0),
  n_rejected_edits: z.number().default(0),
  edits: records<Edit>(),
  rejected_edits: records<RejectedEdit>(),
  unmatched_edits: records<Edit>(),
  /** Edits that tied (no gain, no harm); the next night re-tests them together with its new edits. */
  pending_edits: records<Edit>(),
  /**
   * Mined tasks seen in two or more sessions: a readable label, their sessions, each check with the
   * session and sentence it was read from, the rubric criteria, and every correction with what it
   * became (and why). `one_off_tasks` holds the tasks seen once, in the same shape.
   */
  recurring_tasks: z.array(recurringTaskReportSchema).default([]),
  one_off_tasks: z.array(recurringTaskReportSchema).default([]),
  /**
   * What the user taught in the mined sessions (retired ones marked), most supported first, capped
   * (`skillopt-sleep lessons` lists them all); absent when the night read a tasks file.
   */
  lessons: z.array(lessonReportSchema).optional(),
  /** Older sessions the session cap left out of mining (0 when none). */
  sessions_left_out: z.number().default(0),
  /** What the LLM miner did (null when it did not run: offline backend, tasks file or `llm_mine: false`). */
  llm_miner: record<LlmMinerReport>().nullable().default(null),
  /** The labelling pass (`llm_refine`); absent when it did not run. */
  llm_labels: record<Omit<LabelStats, 'usage'> & { relabelled: number; merged: number }>().optional(),
  /** The rules-from-triples pass (`llm_refine`); absent when it did not run. */
  llm_rules: record<Omit<TripleStats, 'usage'>>().optional(),
  gate_metric: z.string().default(''),
  gate_no_regression: z.boolean().default(false),
  gate_trials: records<GateTrial>(),
  /** The night as trainer steps (one record, the shape of a `train` history.jsonl line). */
  steps: records<StepRecord>(),
  /** Per validation task, before and after, for the candidate the gate decided on. */
  task_deltas: records<TaskDelta>(),
  /** The learned rules of the skill after the night (accepted ones only). */
  learned_rules: z.array(z.string()).default([]),
  target_skill_path: z.string().default(''),
  calls: z.number().default(0),
  tokens_used: z.number().default(0),
  requests: requestsReportSchema.default({ replays: {}, reflect: 0 }),
  /** Real backends: requests, tokens, cost, cache hits, retries, redactions and invalid replies. */
  spend: record<SpendSummary>().nullable().default(null),
  /**
   * '' when the night ran to its end; 'budget' when a spend limit stopped it; 'plan' when a dry-run on a
   * real backend only printed its plan (see `plan`) because spending was not confirmed; 'batch_failed'
   * when a batch failed twice and the night ended (see `batch`). An invocation that stops to wait for
   * answers prints a `WaitingReport` instead (`waiting_handoff`, `waiting_batch`).
   */
  stopped: z.enum(['', 'budget', 'plan', 'batch_failed']).default(''),
  staging_dir: z.string().default(''),
  proposal_id: z.string().default(''),
  notes: z.array(z.string()).default([]),
  harvest: harvestReportSchema.nullable().default(null),
  tasks_file: z.string().optional(),
  /** `run --tasks-from`: the folders whose tasks files the night trained on. */
  tasks_from: z.array(z.string()).optional(),
  tasks_reviewed: z.boolean().optional(),
  /** The memory pass (`evolve_memory`); null when it did not run. Its edits are in `edits` with target "memory". */
  memory: memoryPassReportSchema.nullable().optional(),
  /** Every memory document the night trained, when its lessons went to more than one (`memory` is the first). */
  memory_files: z.array(memoryPassReportSchema).optional(),
  /** Per-skill groups (`multi_skill_fanout`); absent when fan-out is off. */
  skill_groups: z.array(skillGroupReportSchema).optional(),
  /** Skills named with `--skill` / `skills:` (trained whole); absent when none is named. */
  skill_packages: z.array(skillPackageReportSchema).optional(),
  /** A handoff night: what waits in its queue, or (when it finished) where its recording went. */
  handoff: handoffReportSchema.optional(),
  /** A `--batch` night: its batches and the price share its spend was counted at. */
  batch: batchReportSchema.optional(),
  plan: record<SpendPlan>().optional(),
  /** With `plan`: what the night would send, per role (`run --explain-sends` lists the texts). */
  sends: record<SendsSummary>().optional(),
});
export type NightReport = z.infer<typeof nightReportSchema>;

/** What an invocation of a waiting night waits for (`WaitingReport.waiting`). */
export const waitingSchema = z.object({
  /** The phases of the night that wait, e.g. "mine llm_lessons", "skill baseline_val", "skill reflect". */
  phases: z.array(z.string()),
  /** Requests waiting for an answer: what `handoff next` serves, one by one, until it says none. */
  open: z.number(),
  /** The same requests by purpose, the prompt they carry (attempt, judge, reflect, read-follow-ups, …). */
  open_by_purpose: z.record(z.string(), z.number()),
  /** Requests the night asked so far, answered ones included. */
  requests: z.number(),
});
export type WaitingSummary = z.infer<typeof waitingSchema>;

/**
 * What `run --json` prints when an invocation stops to wait for answers: what ran so far (its mining,
 * once done: counts, notes, spend) and what it waits for, and nothing of phases that have not run (no
 * gate action, no scores, no edits). Never staged: the night's report is written when it ends.
 */
export const waitingReportSchema = z.object({
  schema_version: z.number(),
  night: z.number(),
  mode: z.literal('run'),
  project: z.string(),
  backend: z.string(),
  started_at: z.number(),
  ended_at: z.number(),
  stopped: z.enum(['waiting_handoff', 'waiting_batch']),
  waiting: waitingSchema,
  /** The mined tasks' counts, once the night's mining finished (absent while it mines). */
  n_sessions: z.number().optional(),
  n_tasks: z.number().optional(),
  n_unjudged: z.number().optional(),
  n_clusters: z.number().optional(),
  n_recurring: z.number().optional(),
  n_train: z.number().optional(),
  n_val: z.number().optional(),
  n_test: z.number().optional(),
  spend: record<SpendSummary>().nullable(),
  staging_dir: z.literal(''),
  /** What the mining that ran had to say (no note of a phase that has not run). */
  notes: z.array(z.string()),
  handoff: handoffReportSchema.optional(),
  batch: batchReportSchema.optional(),
});
export type WaitingReport = z.infer<typeof waitingReportSchema>;

/** What `runNight` returns: the night's report, or what an invocation that waits says. */
export type NightResult = NightReport | WaitingReport;

export const isWaitingReport = (r: NightResult): r is WaitingReport =>
  r.stopped === 'waiting_handoff' || r.stopped === 'waiting_batch';

/** A staged report.json read back: unknown keys (a newer version's) are kept, missing ones defaulted. */
export const storedReportSchema = nightReportSchema.loose();

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
  return r.holdout_leaked ? `${sizes} (the same tasks: none was set aside for validation)` : sizes;
}

/** Why a night without validation tasks cannot accept anything, and what changes it. */
export const LEAKED_HOLDOUT_TEXT =
  'no task was set aside for validation, so the gate scored the very tasks it trained on and this night can accept nothing; it needs a task seen in two or more sessions (or more tasks) and a val fraction above 0';
