/**
 * How a pass trains: one night step on the plan's tasks and edits, each replay batch reported as
 * progress, kept in the night's replay log, and stored as it happens (so the replays of a night that
 * fails or is killed are still there).
 */
import { sha256Hex } from '../core/hash.js';
import { taskSessions } from '../core/task.js';
import type { Db } from '../store/db.js';
import { insertReplays } from '../store/nights-repo.js';
import type { Backend } from '../backends/types.js';
import type { Logger } from '../core/logger.js';
import { batchScore } from '../trainer/gate.js';
import { runNightStep } from './night-step.js';
import { ReplayMemo } from '../replay/replay-memo.js';
import type { PassContext, TrainingPlan } from './passes/types.js';

/** What was replayed so far: what a budget stop reports. */
export interface ReplayLog {
  done: Array<{ phase: string; tasks: number }>;
  /** The skill's validation baseline, once replayed. */
  baselineScore: number | null;
}

export function nightTrainer(
  plan: TrainingPlan,
  deps: { db: Db; backend: Backend; logger: Logger },
  nightId: number | null,
  log: ReplayLog,
  // One memo for the night: a later pass (or the lift) replaying documents an earlier one replayed asks nothing.
  memo: ReplayMemo = new ReplayMemo(),
): PassContext['train'] {
  const { config } = plan;
  const metric = { metric: config.gate_metric, mixedWeight: config.gate_mixed_weight };
  return ({ target, doc, other, editBudget, tasks, editor, pending }) =>
    runNightStep({
      target,
      tasks: tasks ?? plan.targets.fanout?.managedTasks ?? plan.tasks.tasks,
      skill: doc,
      memory: other,
      backend: deps.backend,
      memo,
      ...(editor ? { editor } : {}),
      rejected: plan.rejected,
      forgotten: plan.forgotten ?? [],
      pending: pending ?? plan.pending.filter((e) => e.target === target),
      options: {
        editBudget,
        rollouts: config.dream_rollouts,
        workers: config.workers,
        metric,
        noRegression: config.gate_no_regression,
        preferences: config.preferences,
      },
      onReplay: (phase, replayedDoc, results) => {
        deps.logger.progress(`replay ${target} ${phase}: ${results.length} tasks`);
        log.done.push({ phase: `${target} ${phase}`, tasks: results.length });
        if (target === 'skill' && phase === 'baseline_val') log.baselineScore = batchScore(results, metric);
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
            sessions: taskSessions(r.task),
          })),
        );
      },
    });
}
