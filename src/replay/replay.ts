/** Replays tasks against candidate documents through a backend and judges the answers. */
import type { Backend } from '../backends/types.js';
import type { Usage } from '../core/usage.js';
import { addUsage } from '../core/usage.js';
import { allOrWait } from '../core/waits.js';
import type { Score, TaskRecord } from '../core/task.js';
import { judgedByModel, scoreAnswer } from './score.js';
import { emptyTally, type ReplayMemo, type ReplayTally } from './replay-memo.js';
import type { ToolSpec } from '../core/tool-calls.js';

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

/** Optional parts of a replay: the sample, a memo of what the night already replayed, a tally of requests. */
export interface ReplayOptions {
  sampleId?: number;
  memo?: ReplayMemo;
  tally?: ReplayTally;
}

/**
 * Replay each task once. Tasks run concurrently (real backends bound how many requests are in flight
 * with their `workers` limit); results keep the order of `tasks`. A task whose attempt or judge waits
 * for an answer does not stop the others (`allOrWait`): a waiting night queues the whole replay. With a
 * memo, an answer these very documents already gave, or a verdict on an answer already judged, is
 * reused instead of asked.
 */
export async function replayTasks(
  tasks: TaskRecord[],
  docs: ReplayDocs,
  backend: Backend,
  usage: Usage,
  options: ReplayOptions = {},
): Promise<ReplayResult[]> {
  const sampleId = options.sampleId ?? 0;
  const tally = options.tally ?? emptyTally();
  const judge = async (task: TaskRecord, response: string, toolsCalled: string[]) => {
    const ask = async () => {
      if (judgedByModel(task, backend)) tally.judges += 1;
      const score = await scoreAnswer(task, response, toolsCalled, backend);
      addUsage(usage, score.usage);
      return score;
    };
    if (!options.memo || !judgedByModel(task, backend)) return ask();
    const known = options.memo.verdict(task, response, toolsCalled, ask);
    if (known.reused) tally.reusedVerdicts += 1;
    return known.result;
  };
  const replayOne = async (task: TaskRecord): Promise<ReplayResult> => {
    const started = performance.now();
    tally.attempts += 1;
    const attempt = await backend.attempt({
      task,
      skill: docs.skill,
      memory: docs.memory,
      sampleId,
      ...(docs.tools && docs.tools.length > 0 ? { tools: docs.tools } : {}),
    });
    addUsage(usage, attempt.usage);
    const score = await judge(task, attempt.response, attempt.toolsCalled);
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
  };
  return allOrWait(
    tasks.map(async (task): Promise<ReplayResult> => {
      if (!options.memo) return replayOne(task);
      const known = options.memo.answer(docs, task, sampleId, () => replayOne(task));
      if (!known.reused) return known.result;
      tally.reusedAnswers += 1;
      // The answer was given once: this replay sent nothing and spent nothing.
      return { ...(await known.result), latencyMs: 0, tokens: 0 };
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
