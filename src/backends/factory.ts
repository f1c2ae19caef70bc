/**
 * Builds the backend a config names. Each role (target: attempts; optimizer: reflects and judges) may
 * use its own backend; real ones share one spend meter (the night's budget), one response cache and
 * one concurrency limit. New backends register in `llm/providers/index.ts`.
 */
import { InputError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Env } from '../config/paths.js';
import type { Config } from '../config/schema.js';
import type { Db } from '../store/db.js';
import { memoryResponseCache, sqliteResponseCache } from '../store/response-cache-repo.js';
import { MockBackend } from './mock/mock-backend.js';
import type { ChatProvider, ChatRole } from './llm/chat.js';
import { GuardedChat } from './llm/guarded-chat.js';
import { Limiter } from '../core/limiter.js';
import { LlmBackend } from './llm/llm-backend.js';
import { FREE_PRICE, isFreeLocal } from './llm/local-server.js';
import { BATCH_PRICE_FACTOR, batchPrice, priceFor } from './llm/prices.js';
import { BatchProvider, batchNightCache, type BatchNightStore } from './batch/batch-provider.js';
import { createProvider, roleSetup } from './llm/providers/index.js';
import { defaultRetryPolicy, type RetryPolicy } from './llm/retry.js';
import { SpendMeter, type SpendSummary } from './llm/spend-meter.js';
import type { Backend } from './types.js';
import type { ExchangeWriter } from './recording/exchange-log.js';
import { RecordingProvider } from './recording/recording-provider.js';
import { HandoffProvider } from './handoff/handoff-provider.js';
import type { HandoffQueue } from './handoff/handoff-queue.js';
import { ReplayProvider, type ReplaySource } from './recording/replay-provider.js';

export interface BackendDeps {
  env: Env;
  clock: Clock;
  logger: Logger;
  /** The store for the response cache; null keeps the cache in memory for this run only. */
  db: Db | null;
  /** Overrides of the retry policy (tests inject an instant sleep). */
  retry?: Partial<RetryPolicy>;
  /** Nothing will be sent (a dry-run's plan): a missing API key is reported only if a request is made. */
  planOnly?: boolean;
  /** Append every exchange with a real model to this log (`--record`). */
  record?: ExchangeWriter;
  /** Answer the real roles from a recorded night instead of their providers (`--replay`). */
  replay?: ReplaySource;
  /** The queue of this project's handoff night (`run --backend handoff`). */
  handoff?: HandoffQueue;
  /** This project's batch night (`run --batch`): real roles answer through their batch engines. */
  batch?: BatchNightStore;
}

/** The backends whose providers run batches (`--batch`), with their batch price share. */
export const BATCH_BACKENDS = Object.keys(BATCH_PRICE_FACTOR) as Array<keyof typeof BATCH_PRICE_FACTOR>;

/** The roles' backends that cannot run a batch night (the mock runs as it always does). */
export function unbatchableBackends(config: Config): string[] {
  const names = (['target', 'optimizer'] as const).map((r) => roleSetup(config, r).backend);
  return [...new Set(names)].filter(
    (n) => n !== 'mock' && !(BATCH_BACKENDS as readonly string[]).includes(n),
  );
}

/** True when some role is answered through the handoff queue (a person or an agent is the model). */
export function usesHandoff(config: Config): boolean {
  return (
    roleSetup(config, 'target').backend === 'handoff' || roleSetup(config, 'optimizer').backend === 'handoff'
  );
}

/** True when every role runs on the mock: nothing leaves the machine and nothing is spent. */
export function isOfflineConfig(config: Config): boolean {
  return roleSetup(config, 'target').backend === 'mock' && roleSetup(config, 'optimizer').backend === 'mock';
}

/** Attempts from one backend, reflection and judging from another (e.g. a real target, mock optimizer). */
class SplitBackend implements Backend {
  readonly name: string;
  readonly offline: boolean;
  readonly deterministic: boolean;
  private readonly target: Backend;
  private readonly optimizer: Backend;
  private readonly real: LlmBackend;
  constructor(target: Backend, optimizer: Backend, real: LlmBackend) {
    this.target = target;
    this.optimizer = optimizer;
    this.real = real;
    this.name = `${target.name}+${optimizer.name}`;
    this.offline = target.offline && optimizer.offline;
    // Samples vary the attempts: the target's answers decide whether another sample can differ.
    this.deterministic = target.deterministic === true;
  }
  attempt: Backend['attempt'] = (req) => this.target.attempt(req);
  get acceptsImages(): boolean {
    return this.target.acceptsImages === true;
  }
  converse: NonNullable<Backend['converse']> = (req) => {
    if (!this.target.converse) throw new InputError(`the ${this.target.name} target cannot run environments`);
    return this.target.converse(req);
  };
  reflect: Backend['reflect'] = (req) => this.optimizer.reflect(req);
  judgeRubric: Backend['judgeRubric'] = (req) => this.optimizer.judgeRubric(req);
  spendSummary = (): SpendSummary => this.real.spendSummary();
  restoreSpend = (summary: SpendSummary): void => this.real.restoreSpend(summary);
  settleSpend = (timeoutMs: number): Promise<void> => this.real.settleSpend(timeoutMs);
}

function buildLlm(config: Config, deps: BackendDeps, roles: ChatRole[]): LlmBackend {
  const meter = new SpendMeter({
    maxCalls: config.max_calls,
    maxTokens: config.max_tokens,
    maxCostUsd: config.max_cost_usd,
  });
  // A handoff night is re-run by each invocation with its queue answering: a cache kept across them
  // would hide its earlier requests from the budget, so it counts the night as one uninterrupted run.
  // A batch night counts its batched answers the same way, and still reads earlier nights' cache.
  const stored = deps.db ? sqliteResponseCache(deps.db, () => deps.clock.now()) : null;
  const cache =
    stored && deps.batch
      ? batchNightCache(memoryResponseCache(), stored, deps.batch)
      : stored && !deps.handoff
        ? stored
        : memoryResponseCache();
  const limiter = new Limiter(config.workers);
  const retry = defaultRetryPolicy(config.max_retries, deps.retry);
  const chat = (role: ChatRole): GuardedChat => {
    const setup = roleSetup(config, role);
    const answering = deps.replay
      ? new ReplayProvider(deps.replay, role, { name: setup.backend, model: setup.model })
      : setup.backend === 'handoff' && deps.handoff
        ? new HandoffProvider(deps.handoff, deps.clock, setup.model)
        : batched(createProvider(setup, config, deps.env, { deferMissingKey: deps.planOnly === true }), deps);
    const provider = deps.record ? new RecordingProvider(answering, deps.record) : answering;
    const listed = isFreeLocal(setup, config) ? FREE_PRICE : priceFor(provider.model, config.prices);
    const factor = answering instanceof BatchProvider ? batchFactor(setup.backend) : 1;
    const price = factor === 1 ? listed : batchPrice(listed, factor);
    if (provider.kind === 'api' && price === null && config.max_cost_usd !== null) {
      throw new InputError(
        `no price is known for the model "${provider.model}", so max_cost_usd cannot be enforced: add it to the config key prices ({"${provider.model}": {"input_per_mtok": ..., "output_per_mtok": ...}}) or set max_cost_usd to null (a server on this machine, base_url on 127.0.0.1 or localhost, is free)`,
        'bad_config',
      );
    }
    const holdPending = answering instanceof BatchProvider;
    return new GuardedChat(provider, {
      meter,
      cache,
      limiter,
      retry,
      price,
      logger: deps.logger,
      holdPending,
    });
  };
  const target = chat(roles.includes('target') ? 'target' : 'optimizer');
  const optimizer = roles.includes('optimizer') ? chat('optimizer') : target;
  return new LlmBackend({ target, optimizer }, meter);
}

/** On a batch night, a provider with a batch engine answers through it. */
function batched(provider: ChatProvider, deps: BackendDeps): ChatProvider {
  return deps.batch && provider.batchApi ? new BatchProvider(provider, deps.batch) : provider;
}

const batchFactor = (backend: string): number =>
  BATCH_PRICE_FACTOR[backend as keyof typeof BATCH_PRICE_FACTOR] ?? 1;

export function createBackend(config: Config, deps: BackendDeps): Backend {
  const targetReal = roleSetup(config, 'target').backend !== 'mock';
  const optimizerReal = roleSetup(config, 'optimizer').backend !== 'mock';
  if (!targetReal && !optimizerReal) return new MockBackend();
  if (targetReal && optimizerReal) return buildLlm(config, deps, ['target', 'optimizer']);
  const real = buildLlm(config, deps, [targetReal ? 'target' : 'optimizer']);
  return targetReal
    ? new SplitBackend(real, new MockBackend(), real)
    : new SplitBackend(new MockBackend(), real, real);
}
