/** `eval`: score one skill on a split of the config's dataset (nothing is cached or written). */
import { declaredTools } from '../../core/tool-calls.js';
import type { Backend } from '../../backends/types.js';
import { zeroUsage } from '../../core/usage.js';
import { InputError } from '../../core/errors.js';
import type { Split } from '../../core/task.js';
import { meanScores } from '../../replay/replay.js';
import { batchScore } from '../gate.js';
import type { Dataset } from './dataset.js';
import type { EnvInstance } from '../envs/index.js';
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import { checkTargetFits, openEnvironment } from './env-data.js';
import { Rollouts } from './rollout.js';
import { readSkill } from './run-train.js';
import { metricOf } from './train-step.js';
import type { TrainConfig } from './train-config.js';

export interface EvalReport {
  split: Split;
  skill_path: string;
  n: number;
  /** Mean hard score (exact match for answer items) and mean soft score (token F1 for answer items). */
  hard: number;
  soft: number;
  gate_metric: string;
  score: number;
  items: Array<{ id: string; hard: number; soft: number; rationale: string }>;
  calls: number;
}

export async function runEval(
  config: TrainConfig,
  skillPath: string,
  split: Split,
  backend: Backend,
  /** The dataset when the CLI read it (a seed folder); else the config's environment is opened. */
  prepared?: Dataset,
  /** The environment `prepared` came from, when it rolls items out itself. */
  preparedEnv?: EnvInstance,
  logger: Logger = silentLogger,
): Promise<EvalReport> {
  const opened = prepared
    ? { data: prepared, instance: preparedEnv }
    : await openEnvironment(config, logger).then((o) => ({ data: o.prepared.data, instance: o.instance }));
  const { data } = opened;
  checkTargetFits(opened.instance, backend, config.env);
  const items = data[split];
  if (items.length === 0) throw new InputError(`${data.file}: no items in split "${split}"`);
  const skill = readSkill(skillPath);
  const usage = zeroUsage();
  // The same tools as in training, whichever split is scored.
  const tools = declaredTools([...data.train, ...data.val].map((item) => item.task));
  const results = await new Rollouts(
    backend,
    config.trainer.workers,
    usage,
    config.target_model,
    null,
    tools,
    opened.instance,
  ).run(items, skill);
  const { hard, soft } = meanScores(results);
  return {
    split,
    skill_path: skillPath,
    n: results.length,
    hard,
    soft,
    gate_metric: config.gate.metric,
    score: batchScore(results, metricOf(config)),
    items: results.map((r) => ({ id: r.task.id, hard: r.hard, soft: r.soft, rationale: r.rationale })),
    calls: usage.calls,
  };
}
