// A real `LlmBackend` over a provider that answers from a queue of scripted replies and records every
// request: the real prompts, extraction, schemas and repair, no network.
import { silentLogger } from '../../src/core/logger.js';
import { memoryResponseCache } from '../../src/store/response-cache-repo.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../../src/backends/llm/chat.js';
import { GuardedChat } from '../../src/backends/llm/guarded-chat.js';
import { Limiter } from '../../src/core/limiter.js';
import { LlmBackend } from '../../src/backends/llm/llm-backend.js';
import { defaultRetryPolicy } from '../../src/backends/llm/retry.js';
import { SpendMeter } from '../../src/backends/llm/spend-meter.js';

export class QueueProvider implements ChatProvider {
  readonly name = 'queue';
  readonly model = 'm';
  readonly kind = 'api' as const;
  sent: ChatRequest[] = [];
  private readonly replies: string[];
  constructor(replies: string[]) {
    this.replies = replies;
  }
  send(req: ChatRequest): Promise<ChatReply> {
    this.sent.push(req);
    return Promise.resolve({ text: this.replies.shift() ?? '', usage: { inputTokens: 1, outputTokens: 1 } });
  }
}

export function queueBackend(replies: string[]) {
  const provider = new QueueProvider(replies);
  const meter = new SpendMeter({ maxCalls: null, maxTokens: null, maxCostUsd: null });
  const chat = new GuardedChat(provider, {
    meter,
    cache: memoryResponseCache(),
    limiter: new Limiter(2),
    retry: defaultRetryPolicy(0),
    price: null,
    logger: silentLogger,
  });
  return { provider, meter, llm: new LlmBackend({ target: chat, optimizer: chat }, meter) };
}
