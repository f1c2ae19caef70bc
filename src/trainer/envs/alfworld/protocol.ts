/**
 * The ALFWorld server protocol: the simulator is the user's own Python process (the `alfworld` package
 * and its data) serving HTTP JSON on the loopback interface; this is its client. Documented in
 * docs/training.md ("The ALFWorld server protocol"):
 *
 *   POST /reset {"gamefile": "<path under ALFWORLD_DATA>"}
 *        → {"episode": "<id>", "observation": "...", "admissible_commands": ["go to desk 1", ...]}
 *   POST /step  {"episode": "<id>", "action": "go to desk 1"}
 *        → {"observation": "...", "admissible_commands": [...], "done": false, "won": false}
 *   POST /close {"episode": "<id>"} → {}
 *
 * Anything else (a non-200 answer, a reply of another shape, no answer in time) is an error naming the
 * server: an episode never scores against a simulator that did not run it.
 */
import { z } from 'zod';
import { ConfigError, UsageError, errorMessage } from '../../../core/errors.js';

const resetReply = z.object({
  episode: z.string().min(1).max(200),
  observation: z.string(),
  admissible_commands: z.array(z.string()).max(2000),
});
const stepReply = z.object({
  observation: z.string(),
  admissible_commands: z.array(z.string()).max(2000),
  done: z.boolean(),
  won: z.boolean(),
});
export type ResetReply = z.infer<typeof resetReply>;
export type StepReply = z.infer<typeof stepReply>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_REPLY_BYTES = 1_000_000;

/** The server's base URL: http on the loopback interface only (observations and actions stay local). */
export function serverUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`env_options.server_url: "${raw}" is not a URL (e.g. http://127.0.0.1:3917)`);
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname))
    throw new ConfigError(
      `env_options.server_url: the ALFWorld server must be http on 127.0.0.1, localhost or [::1] (got ${url.origin})`,
    );
  return url;
}

export class AlfworldClient {
  private readonly base: URL;
  private readonly timeoutMs: number;
  constructor(base: URL, timeoutMs: number) {
    this.base = base;
    this.timeoutMs = timeoutMs;
  }

  private async post<T>(route: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    const url = new URL(route, this.base);
    let text: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    } catch (err) {
      throw new UsageError(
        `the ALFWorld server at ${this.base.origin} did not answer ${route}: ${errorMessage(err)} (is it running? see docs/training.md)`,
      );
    }
    if (text.length > MAX_REPLY_BYTES)
      throw new UsageError(`the ALFWorld server at ${this.base.origin} sent an oversized ${route} reply`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new UsageError(
        `the ALFWorld server at ${this.base.origin} answered ${route} with something not JSON`,
      );
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(
        `the ALFWorld server at ${this.base.origin} answered ${route} in another shape (${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'bad shape'})`,
      );
    }
    return parsed.data;
  }

  reset(gamefile: string): Promise<ResetReply> {
    return this.post('/reset', { gamefile }, resetReply);
  }

  step(episode: string, action: string): Promise<StepReply> {
    return this.post('/step', { episode, action }, stepReply);
  }

  /** Frees the server's episode; a failure here only leaks a simulator until the server is restarted. */
  async close(episode: string): Promise<void> {
    try {
      await this.post('/close', { episode }, z.object({}).passthrough());
    } catch {
      // Best effort.
    }
  }
}
