/**
 * Every model request goes through here, in this order:
 *   1. redaction of every outbound text (system prompt and messages): the built-in redactor, then the
 *      user's `redact_patterns` (the redaction scope, `src/core/redact-user.ts`);
 *   2. the response cache (key: role, provider, model, prompt, parameters): a hit is free;
 *   3. the concurrency limit (`workers`);
 *   4. the hard budget, checked before each request is sent (retries included);
 *   5. the provider; a 429/5xx/network failure goes back to 3 after a backoff with jitter, honouring
 *      `retry-after`; an auth failure or any other error stops the night (exit 1).
 */
import { AnswerPendingError, BackendError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import type { Logger } from '../../core/logger.js';
import { redactTextWithStats } from '../../core/redact-user.js';
import { storedText } from '../../core/safe-text.js';
import type { ResponseCache } from '../../store/response-cache-repo.js';
import type { Usage } from '../../core/usage.js';
import { withImageDigests } from '../../core/chat-image.js';
import { ProviderFailure, type ChatProvider, type ChatReply, type ChatRequest } from './chat.js';
import type { Limiter } from '../../core/limiter.js';
import { costUsd, type Price } from './prices.js';
import { retryDelayMs, type RetryPolicy } from './retry.js';
import type { SpendMeter } from './spend-meter.js';

export interface GuardDeps {
  meter: SpendMeter;
  cache: ResponseCache | null;
  limiter: Limiter;
  retry: RetryPolicy;
  /** Price of this provider's model (null: unknown, cost counted as 0 unless the provider reports it). */
  price: Price | null;
  /** A batch night: a request left waiting keeps its reservation (`SpendMeter.hold`) instead of a refund. */
  holdPending?: boolean;
  logger: Logger;
}

export interface GuardedReply {
  text: string;
  usage: Usage;
  cached: boolean;
}

/** The cache key of a request as it is sent (after redaction). */
export function requestKey(provider: ChatProvider, req: ChatRequest): string {
  return sha256Hex(
    JSON.stringify({
      v: 1,
      role: req.role,
      provider: provider.name,
      model: provider.model,
      system: req.system,
      messages: withImageDigests(req.messages),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      sample: req.sample ?? 0,
      // Absent without tools, so every request that declares none keeps the key it always had.
      ...(req.tools && req.tools.length > 0 ? { tools: req.tools } : {}),
    }),
  );
}

/**
 * The redaction every outbound text gets: the built-in redactor, then the user's `redact_patterns` of
 * the current scope (`run --explain-sends` shows texts through it too).
 */
export function redactOutbound(text: string): { text: string; count: number } {
  return redactTextWithStats(text);
}

export class GuardedChat {
  readonly provider: ChatProvider;
  private readonly deps: GuardDeps;
  constructor(provider: ChatProvider, deps: GuardDeps) {
    this.provider = provider;
    this.deps = deps;
  }

  /** Redact a request's texts; counts what was replaced. */
  private redact(req: ChatRequest): ChatRequest {
    const scrub = (text: string): string => {
      const r = redactOutbound(text);
      this.deps.meter.redactions += r.count;
      return r.text;
    };
    return {
      ...req,
      system: scrub(req.system),
      // Images pass as they are: nothing in their bytes is text to redact.
      messages: req.messages.map((m) => ({ ...m, content: scrub(m.content) })),
    };
  }

  async complete(raw: ChatRequest): Promise<GuardedReply> {
    // Provenance stays here: providers, recordings and handoff queues never see it.
    const { sessions, ...request } = raw;
    const req = this.redact(request);
    const key = requestKey(this.provider, req);
    const hit = this.deps.cache?.get(key, sessions);
    if (hit) {
      this.deps.meter.cacheHits += 1;
      return {
        text: storedText(hit.text),
        usage: { calls: 0, inputTokens: 0, outputTokens: 0 },
        cached: true,
      };
    }
    let sent = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        sent += 1;
        const reply = await this.deps.limiter.run(() => this.sendOnce(req));
        // A reply is untrusted text: it is cached, stored and quoted in documents without escapes or secrets.
        const text = storedText(reply.text);
        this.deps.cache?.put(
          key,
          { text, inputTokens: reply.usage.inputTokens, outputTokens: reply.usage.outputTokens },
          {
            role: req.role,
            provider: this.provider.name,
            model: this.provider.model,
            ...(sessions ? { sessions } : {}),
          },
        );
        return {
          text,
          usage: {
            calls: sent,
            inputTokens: reply.usage.inputTokens,
            outputTokens: reply.usage.outputTokens,
          },
          cached: false,
        };
      } catch (err) {
        if (!(err instanceof ProviderFailure)) throw err;
        if (err.kind !== 'retryable') {
          // Requests already in flight finish; nothing new is sent after an auth or fatal failure.
          this.deps.meter.haltedBy ??= new BackendError(err.message);
          throw this.deps.meter.haltedBy;
        }
        if (attempt >= this.deps.retry.maxRetries) {
          throw new BackendError(`${err.message} (gave up after ${attempt + 1} attempts)`);
        }
        const wait = retryDelayMs(this.deps.retry, attempt, err.retryAfterMs);
        this.deps.meter.retries += 1;
        this.deps.logger.progress(
          `${this.provider.name}: ${err.status ?? 'network'} error, retry ${attempt + 1} in ${wait} ms`,
        );
        await this.deps.retry.sleep(wait);
      }
    }
  }

  /** One request: reserved against the budget first (throws when it would not fit), then sent. */
  private async sendOnce(req: ChatRequest): Promise<ChatReply> {
    const reservation = this.deps.meter.reserve({
      texts: [req.system, ...req.messages.map((m) => m.content)],
      maxOutputTokens: this.provider.outputTokenCap?.(req.maxTokens) ?? req.maxTokens,
      price: this.deps.price,
    });
    try {
      const reply = await this.provider.send(req);
      const cost =
        this.deps.price || reply.reportedCostUsd === undefined
          ? costUsd(this.deps.price, reply.usage.inputTokens, reply.usage.outputTokens)
          : reply.reportedCostUsd;
      this.deps.meter.settle(reservation, { ...reply.usage, costUsd: cost });
      return reply;
    } catch (err) {
      if (err instanceof AnswerPendingError && this.deps.holdPending) this.deps.meter.hold(reservation);
      else if (err instanceof AnswerPendingError) this.deps.meter.refund(reservation);
      else this.deps.meter.settle(reservation, { inputTokens: 0, outputTokens: 0, costUsd: 0 });
      throw err;
    }
  }
}
