/**
 * One item rolled out in its environment: the environment's conversation answered once by the target
 * (single turn), or its episode (the multi-turn hook, which talks to the target itself), then scored by
 * the environment's own scorer unless the episode scored itself.
 */
import type { Backend } from '../../backends/types.js';
import { UsageError } from '../../core/errors.js';
import type { Score } from '../../core/task.js';
import { addUsage, type Usage } from '../../core/usage.js';
import type { EnvInstance } from '../envs/index.js';
import type { EnvTarget } from '../envs/types.js';
import type { DatasetItem } from './dataset.js';

export interface EnvRolloutResult {
  response: string;
  score: Score;
  tokens: number;
}

/** True when the environment rolls items out itself (else the generic attempt and judges do). */
export const rollsOut = (env: EnvInstance | undefined): env is EnvInstance =>
  env !== undefined && (env.prompt !== undefined || env.episode !== undefined);

export async function envRollout(
  env: EnvInstance,
  backend: Backend,
  item: DatasetItem,
  skill: string,
  usage: Usage,
  sampleId = 0,
): Promise<EnvRolloutResult> {
  const converse = backend.converse?.bind(backend);
  if (!converse) throw new UsageError(`the ${backend.name} backend cannot run environment rollouts`);
  let tokens = 0;
  const target: EnvTarget = {
    reply: async (conversation) => {
      const r = await converse({
        task: item.task,
        system: conversation.system,
        messages: conversation.messages,
        maxTokens: env.maxTokens,
        sampleId,
      });
      addUsage(usage, r.usage);
      tokens += r.usage.inputTokens + r.usage.outputTokens;
      return r.text;
    },
  };
  let response: string;
  let given: Score | undefined;
  if (env.episode) {
    const episode = await env.episode(item, skill, target);
    response = episode.response;
    given = episode.score;
  } else if (env.prompt) {
    response = await target.reply(await env.prompt(item, skill));
  } else {
    throw new Error('unreachable: an environment without prompt or episode rolls out generically');
  }
  const score = given ?? env.score?.(item, response);
  if (!score)
    throw new Error('unreachable: an environment that rolls out must score (score, or an episode score)');
  return { response, score, tokens };
}
