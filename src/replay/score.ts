/** Which judge scores a task's answer, and the gate's combined score. */
import type { Backend } from '../backends/types.js';
import type { Usage } from '../core/usage.js';
import { zeroUsage } from '../core/usage.js';
import { ruleChecks, type Score, type TaskRecord } from '../core/task.js';
import type { GateMetric } from '../config/schema.js';
import { exactJudge, normalizeForExact, outcomeJudge } from './judges/exact.js';
import { ruleJudge } from './judges/rule-checks.js';

/** Score one answer. Rule and exact judges run locally; rubric asks the backend's optimizer. */
export async function scoreAnswer(
  task: TaskRecord,
  response: string,
  toolsCalled: string[],
  backend: Backend,
): Promise<Score & { usage: Usage }> {
  switch (task.reference_kind) {
    case 'rule':
      return scoreRuleTask(task, response, toolsCalled, backend);
    case 'exact':
      return { ...exactJudge(task.reference, response), usage: zeroUsage() };
    case 'rubric':
      return backend.judgeRubric({ task, response, rubric: rubricText(task) ?? task.intent });
    case 'none':
    case 'answer':
      // No reference: the best we have is how the session ended.
      return { ...outcomeJudge(task), usage: zeroUsage() };
    default: {
      const never: never = task.reference_kind;
      return never;
    }
  }
}

/** Whether scoring `task` asks the backend's judge: a rubric, or a rule task's criteria on a real backend. */
export function judgedByModel(task: TaskRecord, backend: Pick<Backend, 'offline'>): boolean {
  if (task.reference_kind === 'rubric') return true;
  return task.reference_kind === 'rule' && !backend.offline && rubricText(task) !== null;
}

/**
 * Whether the judge that scores `task` can give two answers different scores on this backend. A task
 * judged by how its old session ended, a rule task with no check (and no criterion a model judge
 * reads: offline backends have none) or an exact task with an empty reference scores the same
 * whatever is answered: replaying it costs requests and teaches nothing.
 */
export function separatesAnswers(task: TaskRecord, backend: Pick<Backend, 'offline'>): boolean {
  switch (task.reference_kind) {
    case 'rule':
      return ruleChecks(task).length > 0 || (!backend.offline && rubricText(task) !== null);
    case 'exact':
      return normalizeForExact(task.reference) !== '';
    case 'rubric':
      return true;
    case 'none':
    case 'answer':
      return false;
    default: {
      const never: never = task.reference_kind;
      return never;
    }
  }
}

/**
 * The rubric a model judge grades a task's answer against: a rubric task's reference (or its intent),
 * a rule task's criteria as a list; null when no model judges the task.
 */
export function rubricText(task: TaskRecord): string | null {
  if (task.reference_kind === 'rubric') return task.reference || task.intent;
  const criteria = task.reference_kind === 'rule' ? (task.rubric_criteria ?? []) : [];
  return criteria.length === 0 ? null : criteria.map((c) => `- ${c}`).join('\n');
}

/**
 * Checks first; a mined task may also carry the user's corrections that have no checkable shape
 * (`rubric_criteria`). A real backend's rubric judge grades those too: the answer passes when both
 * pass, and the soft score is their mean. Offline backends have no judge for prose and keep the checks.
 */
async function scoreRuleTask(
  task: TaskRecord,
  response: string,
  toolsCalled: string[],
  backend: Backend,
): Promise<Score & { usage: Usage }> {
  const checks = ruleJudge(ruleChecks(task), response, toolsCalled);
  const rubric = rubricText(task);
  if (rubric === null || backend.offline) return { ...checks, usage: zeroUsage() };
  const judged = await backend.judgeRubric({ task, response, rubric });
  // No valid verdict on the criteria: the checks alone score the answer.
  if (judged.unjudged)
    return { ...checks, rationale: `${checks.rationale}; rubric left out`, usage: judged.usage };
  return {
    hard: Math.min(checks.hard, judged.hard),
    soft: (checks.soft + judged.soft) / 2,
    rationale: `${checks.rationale}; rubric: ${judged.rationale}`,
    usage: judged.usage,
  };
}

export interface GateMetricConfig {
  metric: GateMetric;
  mixedWeight: number;
}

/** hard | soft | (1-w)*hard + w*soft */
export function gateScore(hard: number, soft: number, m: GateMetricConfig): number {
  switch (m.metric) {
    case 'hard':
      return hard;
    case 'soft':
      return soft;
    case 'mixed':
      return (1 - m.mixedWeight) * hard + m.mixedWeight * soft;
    default: {
      const never: never = m.metric;
      return never;
    }
  }
}
