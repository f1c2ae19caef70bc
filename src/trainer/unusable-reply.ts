import { z } from 'zod';

/**
 * A reply that does not parse or has the wrong shape: what the trainer's fallbacks stand in for. A spent
 * budget, an auth or backend failure and a handoff wait are not: they stop the night and are rethrown.
 */
export function isUnusableReply(err: unknown): boolean {
  return err instanceof SyntaxError || err instanceof z.ZodError;
}
