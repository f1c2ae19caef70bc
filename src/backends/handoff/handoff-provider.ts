/**
 * The handoff backend: a person or an agent is the model. A request with a recorded answer gets it;
 * any other request is queued (redacted, with its role) and the night stops cleanly to wait for it.
 * Nothing is sent anywhere and nothing is billed.
 */
import { AnswerPendingError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import type { ChatProvider, ChatReply, ChatRequest, ChatUsage } from '../llm/chat.js';
import { requestId, type HandoffQueue } from './handoff-queue.js';

/** A rough token count (four bytes a token) so `max_tokens` budgets a handoff night too. */
const estimatedTokens = (texts: string[]): number =>
  Math.ceil(texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0) / 4);

/** The usage a handoff answer is counted with. */
export function handoffUsage(req: ChatRequest, text: string): ChatUsage {
  return {
    inputTokens: estimatedTokens([req.system, ...req.messages.map((m) => m.content)]),
    outputTokens: estimatedTokens([text]),
  };
}

export class HandoffProvider implements ChatProvider {
  readonly name = 'handoff';
  readonly model: string;
  readonly kind = 'agent-cli' as const;
  private readonly queue: HandoffQueue;
  private readonly clock: Clock;
  constructor(queue: HandoffQueue, clock: Clock, model = '') {
    this.queue = queue;
    this.clock = clock;
    this.model = model || 'handoff';
  }

  send(req: ChatRequest): Promise<ChatReply> {
    return Promise.resolve().then(() => {
      const id = requestId(req);
      const text = this.queue.answerFor(id);
      if (text === null) {
        this.queue.enqueue(req, this.clock.now());
        throw new AnswerPendingError(id);
      }
      return { text, usage: handoffUsage(req, text) };
    });
  }
}
