// A night that waits for answers, in memory: a real `LlmBackend` whose provider answers a request once
// an answer was given for it and otherwise queues it and throws `AnswerPendingError`, as the handoff
// queue does. Each `invocation()` is a fresh backend over the same answers (one `run` of the night).
import { AnswerPendingError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { Limiter } from '../../src/core/limiter.js';
import { memoryResponseCache } from '../../src/store/response-cache-repo.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../../src/backends/llm/chat.js';
import { GuardedChat } from '../../src/backends/llm/guarded-chat.js';
import { LlmBackend } from '../../src/backends/llm/llm-backend.js';
import { defaultRetryPolicy } from '../../src/backends/llm/retry.js';
import { SpendMeter } from '../../src/backends/llm/spend-meter.js';
import { exchangeHash } from '../../src/backends/recording/exchange-log.js';

export interface QueuedAsk {
  id: string;
  purpose: string;
  request: ChatRequest;
}

class WaitingProvider implements ChatProvider {
  readonly name = 'handoff';
  readonly model = 'handoff';
  readonly kind = 'agent-cli' as const;
  private readonly night: WaitingNightSim;
  constructor(night: WaitingNightSim) {
    this.night = night;
  }
  send(req: ChatRequest): Promise<ChatReply> {
    return Promise.resolve().then(() => {
      const id = exchangeHash(req);
      const text = this.night.answers.get(id);
      if (text !== undefined) return { text, usage: { inputTokens: 1, outputTokens: 1 } };
      if (!this.night.open.some((q) => q.id === id))
        this.night.open.push({ id, purpose: req.purpose ?? req.role, request: req });
      throw new AnswerPendingError(id);
    });
  }
}

/** A provider that answers every request at once with `reply`: the same night, run interactively. */
class AnsweringProvider implements ChatProvider {
  readonly name = 'handoff';
  readonly model = 'handoff';
  readonly kind = 'agent-cli' as const;
  sent = 0;
  private readonly reply: (ask: QueuedAsk) => string;
  constructor(reply: (ask: QueuedAsk) => string) {
    this.reply = reply;
  }
  send(req: ChatRequest): Promise<ChatReply> {
    this.sent += 1;
    const text = this.reply({ id: exchangeHash(req), purpose: req.purpose ?? req.role, request: req });
    return Promise.resolve({ text, usage: { inputTokens: 1, outputTokens: 1 } });
  }
}

function backendOver(provider: ChatProvider, workers: number): LlmBackend {
  const meter = new SpendMeter({ maxCalls: null, maxTokens: null, maxCostUsd: null });
  const chat = new GuardedChat(provider, {
    meter,
    cache: memoryResponseCache(),
    limiter: new Limiter(workers),
    retry: defaultRetryPolicy(0),
    price: null,
    logger: silentLogger,
  });
  return new LlmBackend({ target: chat, optimizer: chat }, meter);
}

/** The night answered as it asks (interactively); `sent()` counts its requests. */
export function answeringBackend(reply: (ask: QueuedAsk) => string): { llm: LlmBackend; sent: () => number } {
  const provider = new AnsweringProvider(reply);
  return { llm: backendOver(provider, 4), sent: () => provider.sent };
}

/** The answers given so far and the requests still open, across invocations. */
export class WaitingNightSim {
  readonly answers = new Map<string, string>();
  open: QueuedAsk[] = [];
  /** How many requests each round queued, by purpose. */
  readonly rounds: Array<Record<string, number>> = [];

  /** A fresh backend for one invocation (no cache carried over: answers come from the queue). */
  invocation(workers = 4): LlmBackend {
    return backendOver(new WaitingProvider(this), workers);
  }

  /** Answer every open request with `reply`; records the round's counts by purpose. */
  answerAll(reply: (ask: QueuedAsk) => string): void {
    const round: Record<string, number> = {};
    for (const ask of this.open) {
      round[ask.purpose] = (round[ask.purpose] ?? 0) + 1;
      this.answers.set(ask.id, reply(ask));
    }
    this.rounds.push(round);
    this.open = [];
  }
}

/** Run `night` once per invocation until it stops waiting, answering each round; at most `max` runs. */
export async function driveWaitingNight<T>(
  sim: WaitingNightSim,
  night: (backend: LlmBackend) => Promise<T>,
  reply: (ask: QueuedAsk) => string,
  max = 30,
): Promise<{ result: T; invocations: number }> {
  for (let invocations = 1; invocations <= max; invocations++) {
    try {
      return { result: await night(sim.invocation()), invocations };
    } catch (err) {
      if (!(err instanceof AnswerPendingError)) throw err;
      if (sim.open.length === 0) throw new Error('the night waits, yet queued nothing', { cause: err });
      sim.answerAll(reply);
    }
  }
  throw new Error(`the night did not end in ${max} invocations`);
}

/** The whole prompt a request carries (system prompt and messages), as a model reads it. */
export const promptOf = (r: ChatRequest): string =>
  [r.system, ...r.messages.map((m) => m.content)].join('\n\n');
