/**
 * The one chat-level abstraction every real backend speaks: a system prompt and messages in, text and
 * token usage out. Providers (OpenAI-compatible, Anthropic, agent CLIs) implement `ChatProvider`; the
 * guarded pipeline (`guarded-chat.ts`) wraps them with redaction, cache, budget, retries and a
 * concurrency limit.
 */
import type { BatchApi } from '../batch/batch-api.js';
import type { ChatImage } from '../../core/chat-image.js';
import type { ToolSpec } from '../../core/tool-calls.js';

/** Who is asking: the target attempts tasks, the optimizer reflects and judges. */
export type ChatRole = 'target' | 'optimizer';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  /** Images shown with the text (a user message); only a provider with `images` sends them. */
  images?: ChatImage[];
}

export interface ChatRequest {
  role: ChatRole;
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  /** Distinguishes repeated samples of the same prompt (part of the cache key, never sent). */
  sample?: number;
  /**
   * Tools declared to a provider that calls them natively (`nativeTools`); it writes each call it reads
   * from the response into the reply's text as a stated call (`TOOL_CALL: name argument`).
   */
  tools?: readonly ToolSpec[];
  /**
   * The sessions whose text the request carries (provenance for `forget`): traced with the cached
   * reply, never sent, not part of the cache key; the guarded chat takes it off before the provider.
   */
  sessions?: readonly string[];
  /**
   * What the request is for: its prompt template (`attempt`, `judge`, `reflect`, `read-follow-ups`,
   * …). Never sent and not part of the cache key; a waiting night counts its open requests by it.
   */
  purpose?: string;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatReply {
  text: string;
  usage: ChatUsage;
  /** Cost the provider itself reported (agent CLIs), used instead of the price table when present. */
  reportedCostUsd?: number;
}

/** A model endpoint. `send` makes exactly one request (no retries of its own). */
export interface ChatProvider {
  /** Backend name as configured (`openai`, `anthropic`, `claude-code`, ...). */
  readonly name: string;
  readonly model: string;
  /** Agent CLIs bill a subscription: without a price-table entry their cost is not counted. */
  readonly kind: 'api' | 'agent-cli';
  /** True when it declares `ChatRequest.tools` to the model; any other states calls in its text. */
  readonly nativeTools?: boolean;
  /** True when it sends a message's `images` to the model; any other refuses a request that has some. */
  readonly images?: boolean;
  send(req: ChatRequest): Promise<ChatReply>;
  /**
   * The most output tokens a request with this `maxTokens` can bill, when more (reasoning models bill
   * their hidden reasoning too); the budget reserves it.
   */
  outputTokenCap?(maxTokens: number): number;
  /** The provider's batch engine at half price (`--batch`), where it has one (OpenAI, Azure, Anthropic). */
  batchApi?(): BatchApi;
}

export type FailureKind = 'auth' | 'retryable' | 'fatal';

/**
 * A failed request, classified so the retry loop knows what to do: `auth` and `fatal` stop the night
 * (exit 1), `retryable` (429, 5xx, network, timeouts) is retried with backoff, honouring `retryAfterMs`.
 */
export class ProviderFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(message: string, kind: FailureKind, status?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'ProviderFailure';
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Classify an HTTP status the way every API provider does. */
export function kindOfStatus(status: number | undefined): FailureKind {
  if (status === undefined) return 'retryable';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 409 || status === 429 || status >= 500) return 'retryable';
  return 'fatal';
}

/** `retry-after-ms`, or `retry-after` as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(
  header: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = header('retry-after-ms');
  if (ms != null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = header('retry-after');
  if (value == null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
