import { describe, expect, it } from 'vitest';
import { BackendError, BudgetExhaustedError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { memoryResponseCache, type ResponseCache } from '../../store/response-cache-repo.js';
import { ProviderFailure, type ChatProvider, type ChatReply, type ChatRequest } from './chat.js';
import { GuardedChat } from './guarded-chat.js';
import { withRedactPatterns } from '../../core/redact-user.js';
import { Limiter } from '../../core/limiter.js';
import { defaultRetryPolicy } from './retry.js';
import { SpendMeter } from './spend-meter.js';

/** A provider that fails as scripted, then echoes; it records every request it was sent. */
class ScriptedProvider implements ChatProvider {
  readonly name = 'scripted';
  readonly model = 'm';
  readonly kind = 'api' as const;
  sent: ChatRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  script: ProviderFailure[] = [];
  async send(req: ChatRequest): Promise<ChatReply> {
    this.sent.push(req);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 5));
    this.inFlight -= 1;
    const failure = this.script.shift();
    if (failure) throw failure;
    return { text: `echo ${req.messages[0]?.content ?? ''}`, usage: { inputTokens: 10, outputTokens: 5 } };
  }
}

function guarded(
  opts: { maxCalls?: number | null; workers?: number; maxRetries?: number; cache?: ResponseCache } = {},
) {
  const provider = new ScriptedProvider();
  const meter = new SpendMeter({ maxCalls: opts.maxCalls ?? null, maxTokens: null, maxCostUsd: null });
  const sleeps: number[] = [];
  const cache = opts.cache ?? memoryResponseCache();
  const chat = new GuardedChat(provider, {
    meter,
    cache,
    limiter: new Limiter(opts.workers ?? 4),
    retry: defaultRetryPolicy(opts.maxRetries ?? 3, {
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
    }),
    price: null,
    logger: silentLogger,
  });
  return { provider, meter, sleeps, cache, chat };
}

const ask = (content: string, sample = 0): ChatRequest => ({
  role: 'target',
  system: 'sys',
  messages: [{ role: 'user', content }],
  maxTokens: 100,
  temperature: 0,
  sample,
});

describe('GuardedChat', () => {
  it('redacts secrets before the provider sees anything', async () => {
    const g = guarded();
    const secret = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
    await g.chat.complete({ ...ask(`my key is ${secret}`), system: `also ${secret}` });
    const seen = JSON.stringify(g.provider.sent);
    expect(seen).not.toContain(secret);
    expect(seen).toContain('[REDACTED:openai-key]');
    expect(g.meter.redactions).toBe(2);
  });

  it("redacts the user's redact_patterns of the scope too, before sending and in the cached reply", async () => {
    const g = guarded();
    const id = 'ACME-' + '123456';
    const reply = await withRedactPatterns([{ name: 'acme-id', regex: 'ACME-[0-9]{6}' }], () =>
      g.chat.complete({ ...ask(`ticket ${id}`), system: `also ${id} and INT-${'42'}` }),
    );
    const seen = JSON.stringify(g.provider.sent);
    expect(seen).not.toContain(id);
    expect(seen).toContain('[REDACTED:acme-id]');
    expect(seen).toContain('INT-42');
    expect(g.meter.redactions).toBe(2);
    expect(reply.text).toBe('echo ticket [REDACTED:acme-id]');
    // Outside the scope, the same text goes out with only the built-in redaction.
    await g.chat.complete(ask(`ticket ${id}`));
    expect(g.provider.sent[1]?.messages[0]?.content).toBe(`ticket ${id}`);
  });

  it('answers a repeated request from the cache for free, but not another sample', async () => {
    const g = guarded();
    const first = await g.chat.complete(ask('hello'));
    const again = await g.chat.complete(ask('hello'));
    expect(again).toMatchObject({ text: first.text, cached: true, usage: { calls: 0 } });
    expect(g.provider.sent).toHaveLength(1);
    await g.chat.complete(ask('hello', 1));
    expect(g.provider.sent).toHaveLength(2);
    expect(g.meter.summary()).toMatchObject({ calls: 2, cache_hits: 1 });
  });

  it('retries 429 and 5xx, honours retry-after, and counts every request sent', async () => {
    const g = guarded();
    g.provider.script = [
      new ProviderFailure('rate limited', 'retryable', 429, 7000),
      new ProviderFailure('server error', 'retryable', 503),
    ];
    const r = await g.chat.complete(ask('x'));
    expect(r.text).toBe('echo x');
    expect(g.provider.sent).toHaveLength(3);
    // retry-after exactly; then backoff with jitter: half to all of 500 * 2^1.
    expect(g.sleeps).toEqual([7000, 750]);
    expect(g.meter.summary()).toMatchObject({ calls: 3, retries: 2 });
    expect(r.usage.calls).toBe(3);
  });

  it('stops on an auth failure at once, with the provider message and exit code 1', async () => {
    const g = guarded();
    g.provider.script = [new ProviderFailure('scripted rejected the credentials (HTTP 401)', 'auth', 401)];
    const err = await g.chat.complete(ask('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).exitCode).toBe(1);
    expect((err as Error).message).toContain('HTTP 401');
    expect(g.provider.sent).toHaveLength(1);
  });

  it('gives up after max_retries with a clear message', async () => {
    const g = guarded({ maxRetries: 2 });
    g.provider.script = Array.from({ length: 5 }, () => new ProviderFailure('boom', 'retryable', 500));
    await expect(g.chat.complete(ask('x'))).rejects.toThrow(/gave up after 3 attempts/);
    expect(g.provider.sent).toHaveLength(3);
  });

  it('never sends more than max_calls, retries included', async () => {
    const g = guarded({ maxCalls: 2 });
    g.provider.script = Array.from({ length: 5 }, () => new ProviderFailure('busy', 'retryable', 429, 0));
    await expect(g.chat.complete(ask('x'))).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(g.provider.sent).toHaveLength(2);
    await expect(g.chat.complete(ask('y'))).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(g.provider.sent).toHaveLength(2);
  });

  it('keeps at most `workers` requests in flight', async () => {
    const g = guarded({ workers: 2 });
    await Promise.all(Array.from({ length: 7 }, (_, i) => g.chat.complete(ask(`q${i}`))));
    expect(g.provider.sent).toHaveLength(7);
    expect(g.provider.maxInFlight).toBe(2);
  });
});

describe('session provenance', () => {
  it('is never sent, is not part of the cache key, and is traced on a put and on a hit', async () => {
    const traced: Array<[string, readonly string[] | undefined]> = [];
    const inner = memoryResponseCache();
    const { provider, chat } = guarded({
      cache: {
        get: (key, sessions) => {
          const hit = inner.get(key);
          if (hit) traced.push(['hit', sessions]);
          return hit;
        },
        put: (key, value, meta) => {
          traced.push(['put', meta.sessions]);
          inner.put(key, value, meta);
        },
      },
    });
    await chat.complete({ ...ask('q'), sessions: ['claude:a'] });
    const again = await chat.complete({ ...ask('q'), sessions: ['claude:b'] });
    expect(again.cached).toBe(true);
    expect(provider.sent).toHaveLength(1);
    expect(Object.keys(provider.sent[0] ?? {})).not.toContain('sessions');
    expect(traced).toEqual([
      ['put', ['claude:a']],
      ['hit', ['claude:b']],
    ]);
  });
});
