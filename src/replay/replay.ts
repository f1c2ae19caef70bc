/** Replays tasks against candidate documents through a backend and judges the answers. */
import type { Backend } from '../backends/types.js';
import type { Usage } from '../core/usage.js';
import { addUsage } from '../core/usage.js';
import type { Score, TaskRecord } from '../core/task.js';
import type { ToolSpec } from '../core/tool-calls.js';
import { scoreAnswer } from './score.js';

export interface ReplayResult extends Score {
  task: TaskRecord;
  response: string;
  toolsCalled: string[];
  latencyMs: number;
  tokens: number;
}

export interface ReplayDocs {
  skill: string;
  memory: string;
  /** The tools the target may call (see `declaredTools`); none when absent. */
  tools?: readonly ToolSpec[];
}

/**
 * Replay each task once. Tasks run concurrently (real backends bound how many requests are in flight
 * with their `workers` limit); results keep the order of `tasks`.
 */
export async function replayTasks(
  tasks: TaskRecord[],
  docs: ReplayDocs,
  backend: Backend,
  usage: Usage,
  sampleId = 0,
): Promise<ReplayResult[]> {
  return Promise.all(
    tasks.map(async (task): Promise<ReplayResult> => {
      const started = performance.now();
      const attempt = await backend.attempt({
        task,
        skill: docs.skill,
        memory: docs.memory,
        sampleId,
        ...(docs.tools && docs.tools.length > 0 ? { tools: docs.tools } : {}),
      });
      const score = await scoreAnswer(task, attempt.response, attempt.toolsCalled, backend);
      addUsage(usage, attempt.usage);
      addUsage(usage, score.usage);
      return {
        task,
        response: attempt.response,
        toolsCalled: attempt.toolsCalled,
        hard: score.hard,
        soft: score.soft,
        rationale: score.rationale,
        ...(score.unjudged ? { unjudged: true } : {}),
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
        tokens: attempt.usage.inputTokens + attempt.usage.outputTokens,
      };
    }),
  );
}

/** Means over the judged answers; an answer the judge never scored is left out, not counted as 0. */
export function meanScores(all: ReplayResult[]): { hard: number; soft: number } {
  const results = all.filter((r) => !r.unjudged);
  if (results.length === 0) return { hard: 0, soft: 0 };
  const hard = results.reduce((s, r) => s + r.hard, 0) / results.length;
  const soft = results.reduce((s, r) => s + r.soft, 0) / results.length;
  return { hard, soft };
}
