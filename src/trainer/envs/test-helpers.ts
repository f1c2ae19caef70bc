/**
 * For the environments' tests: a fixture (`test/fixtures/envs/<env>/fixture.yaml` and its data) opened
 * as `train` opens it, and a backend answering from the fixture's recorded real-model exchange
 * (`recording.jsonl`, written by `test/fixtures/envs/record.mjs`), which sends nothing anywhere.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBackend } from '../../backends/factory.js';
import { readExchanges } from '../../backends/recording/exchange-log.js';
import { ReplaySource } from '../../backends/recording/replay-provider.js';
import type { Backend } from '../../backends/types.js';
import { configSchema } from '../../config/schema.js';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { zeroUsage } from '../../core/usage.js';
import type { DatasetItem } from '../batch/dataset.js';
import { openEnvironment, type OpenedEnvironment } from '../batch/env-data.js';
import { envRollout, type EnvRolloutResult } from '../batch/env-rollout.js';
import { loadTrainConfig } from '../batch/train-config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const envFixtureDir = (env: string): string => path.resolve(here, '../../../test/fixtures/envs', env);

/** The fixture opened as `train --config fixture.yaml [--set ...]` opens it. */
export async function openFixture(env: string, overrides: string[] = []): Promise<OpenedEnvironment> {
  const { config } = loadTrainConfig(path.join(envFixtureDir(env), 'fixture.yaml'), overrides);
  return openEnvironment(config, silentLogger);
}

/** An OpenAI target (and optimizer) answered only from the fixture's recording. */
export function recordedBackend(env: string): Backend {
  const exchanges = readExchanges(path.join(envFixtureDir(env), 'recording.jsonl'));
  const config = configSchema.parse({ backend: 'openai', target_model: 'gpt-5.4-mini', max_cost_usd: null });
  return createBackend(config, {
    env: {},
    clock: systemClock,
    logger: silentLogger,
    db: null,
    replay: new ReplaySource(exchanges, 'hash'),
  });
}

/** Every item of the fixture rolled out with its initial skill, in item order. */
export async function rollAll(
  opened: OpenedEnvironment,
  backend: Backend,
  items: readonly DatasetItem[] = opened.prepared.data.items,
): Promise<Array<EnvRolloutResult & { id: string }>> {
  const out: Array<EnvRolloutResult & { id: string }> = [];
  for (const item of items) {
    const r = await envRollout(opened.instance, backend, item, opened.prepared.skill, zeroUsage());
    out.push({ ...r, id: item.task.id });
  }
  return out;
}
