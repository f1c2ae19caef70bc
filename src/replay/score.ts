/** Which judge scores a task's answer, and the gate's combined score. */
import type { Backend, Usage } from '../backends/types.js';
import { zeroUsage } from '../backends/types.js';
import { ruleChecks, type Score, type TaskRecord } from '../core/task.js';
import type { GateMetric } from '../config/schema.js';
import { exactJudge, outcomeJudge } from './judges/exact.js';
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
      return { ...ruleJudge(ruleChecks(task), response, toolsCalled), usage: zeroUsage() };
    case 'exact':
      return { ...exactJudge(task.reference, response), usage: zeroUsage() };
    case 'rubric':
      return backend.judgeRubric({ task, response, rubric: task.reference || task.intent });
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
