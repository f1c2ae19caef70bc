/** An environment's `env_options`, parsed by its schema: a wrong or unknown key is a config error naming it. */
import type { z } from 'zod';
import { ConfigError } from '../../../core/errors.js';

export function parseEnvOptions<T>(env: string, schema: z.ZodType<T>, options: Record<string, unknown>): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys')
    throw new ConfigError(
      `env_options: the ${env} environment has no option ${issue.keys.map((k) => `"${k}"`).join(', ')}`,
    );
  const at = issue ? issue.path.map(String).join('.') : '';
  throw new ConfigError(`env_options${at ? `.${at}` : ''}: ${issue?.message ?? 'invalid'} (env ${env})`);
}
