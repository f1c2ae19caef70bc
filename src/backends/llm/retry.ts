/**
 * When and how long to wait before retrying a failed request: exponential backoff with jitter
 * (a random delay between half and all of `base * 2^attempt`, capped), or exactly what the server asked
 * for in `retry-after` (capped at `maxRetryAfterMs`). The sleep is injectable so tests run instantly.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  capMs: number;
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function defaultRetryPolicy(maxRetries: number, overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    maxRetries,
    baseMs: 500,
    capMs: 30_000,
    maxRetryAfterMs: 120_000,
    sleep: realSleep,
    random: Math.random,
    ...overrides,
  };
}

/** Delay before retry number `attempt` (0 = first retry). */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}
