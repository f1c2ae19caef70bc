/**
 * The task record: one replayable task. Field names follow the reference's `skillopt_sleep.tasks.v1`
 * format so tasks files carry across unchanged.
 */
export type Outcome = 'success' | 'fail' | 'mixed' | 'unknown';
export type ReferenceKind = 'exact' | 'rubric' | 'rule' | 'none' | 'answer';
export type Split = 'train' | 'val' | 'test';
export type Origin = 'real' | 'dream';

/** One rule check, e.g. `{ op: 'contains', arg: 'pnpm' }`. `arg` is absent for `no_refusal`. */
export interface Check {
  op: string;
  arg?: string | number;
  /**
   * Other forms of `arg` the evidence showed (`vitest run` beside `vitest --run`), read by the term
   * ops (see `ANY_OF_OPS` in `action-checks.ts`): a positive check passes on any form, a negative
   * one fails on any. `arg` stays the main form.
   */
  any_of?: string[];
  /**
   * The user's own sentence the check was learned from (its wording and provenance). Judges score
   * `op` and `arg` only; a failure names the sentence, so reflection reads the rule, not a code.
   */
  because?: string;
}

/** A check's identity: its op, arg and other forms (two checks that differ only in `because` are one check). */
export function checkKey(check: Check): string {
  const key = `${check.op}\u0000${String(check.arg ?? '')}`;
  return check.any_of === undefined || check.any_of.length === 0
    ? key
    : `${key}\u0000${check.any_of.join('\u0001')}`;
}

export interface RuleJudge {
  kind: 'rule';
  checks: Check[];
}

export interface TaskRecord {
  id: string;
  project: string;
  intent: string;
  context_excerpt: string;
  system: string;
  /** What the agent answered when it met this task (its first attempt, before any correction). */
  attempted_solution: string;
  outcome: Outcome;
  reference_kind: ReferenceKind;
  reference: string;
  judge: RuleJudge | Record<string, never>;
  tags: string[];
  source_sessions: string[];
  split: Split;
  origin: Origin;
  derived_from: string;
  skill_hint: string;
  /**
   * Rule tasks only: the user's corrections that have no checkable shape, in their words. A real
   * backend's rubric judge grades them alongside the checks; offline judges ignore them.
   */
  rubric_criteria?: string[];
  /**
   * Every session whose text the task carries when more than `source_sessions` (a mined task's checks
   * and criteria quote the corrections of other sessions of its kind). Provenance for `forget` only:
   * never written to tasks files.
   */
  trace_sessions?: string[];
}

/** The sessions whose text a task carries: what its replays and model replies are traced to. */
export function taskSessions(task: Pick<TaskRecord, 'source_sessions' | 'trace_sessions'>): string[] {
  return task.trace_sessions ?? task.source_sessions;
}

/** The sessions of many tasks, each once. */
export function tasksSessions(
  tasks: ReadonlyArray<Pick<TaskRecord, 'source_sessions' | 'trace_sessions'>>,
): string[] {
  return [...new Set(tasks.flatMap(taskSessions))];
}

/** Which edit-able document an edit targets. Only the skill is trained in this version. */
export type EditTarget = 'skill' | 'memory';
export type EditOp = 'add' | 'replace' | 'delete';

export interface Edit {
  target: EditTarget;
  op: EditOp;
  content: string;
  anchor: string;
  rationale: string;
}

/** A judged answer: `hard` is pass/fail (0 or 1), `soft` is partial credit in [0,1]. */
export interface Score {
  hard: number;
  soft: number;
  rationale: string;
  /** The judge never gave a valid reply: the answer is left out of every mean and comparison. */
  unjudged?: boolean;
}

export function emptyTask(overrides: Partial<TaskRecord> & Pick<TaskRecord, 'id' | 'intent'>): TaskRecord {
  return {
    project: '',
    context_excerpt: '',
    system: '',
    attempted_solution: '',
    outcome: 'unknown',
    reference_kind: 'none',
    reference: '',
    judge: {},
    tags: [],
    source_sessions: [],
    split: 'train',
    origin: 'real',
    derived_from: '',
    skill_hint: '',
    ...overrides,
  };
}

export function ruleChecks(task: TaskRecord): Check[] {
  return task.reference_kind === 'rule' && 'checks' in task.judge ? task.judge.checks : [];
}
