/**
 * The config's environment opened and loaded: the items (split), the skill a run starts from (the
 * config's `skill.init`, else the environment's initial skill) and the digest a resume checks.
 */
import { UsageError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Backend } from '../../backends/types.js';
import { environmentNamed, type EnvInstance } from '../envs/index.js';
import type { PreparedDataset } from './dataset.js';
import { readSkill } from './skill-file.js';
import type { TrainConfig } from './train-config.js';

export interface OpenedEnvironment {
  instance: EnvInstance;
  prepared: PreparedDataset;
}

export async function openEnvironment(config: TrainConfig, logger: Logger): Promise<OpenedEnvironment> {
  const env = environmentNamed(config.env);
  const instance = env.open({
    dataPath: config.data?.path ?? '',
    dataDir: config.data_dir,
    splitDir: config.split_dir,
    options: config.env_options,
    seed: config.seed,
    splitRatio: config.split_ratio,
    limit: config.limit,
    logger,
  });
  const { data, digest } = await instance.load();
  const skill = config.skill.init === '' ? env.initialSkill : readSkill(config.skill.init);
  return { instance, prepared: { data, skill, digest } };
}

/** An environment whose prompts carry images needs a target that reads them: refused before any call. */
export function checkTargetFits(env: EnvInstance | undefined, backend: Backend, envName: string): void {
  if (env?.needsImages && backend.acceptsImages !== true)
    throw new UsageError(
      `env ${envName} shows the target images, which the ${backend.name} backend cannot read: use the openai, azure-openai or anthropic backend (or mock)`,
    );
  if (env && (env.prompt || env.episode) && !backend.converse)
    throw new UsageError(`the ${backend.name} backend cannot run the ${envName} environment`);
}
