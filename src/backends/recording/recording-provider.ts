/**
 * Recording: wraps any chat provider and appends every answered request (as sent: redacted, with its
 * role) and its reply to the night's exchange log, so the night can later be replayed exactly.
 */
import type { ChatProvider, ChatReply, ChatRequest } from '../llm/chat.js';
import { toExchange, type ExchangeWriter } from './exchange-log.js';

export class RecordingProvider implements ChatProvider {
  readonly name: string;
  readonly model: string;
  readonly kind: ChatProvider['kind'];
  readonly nativeTools: boolean;
  readonly images: boolean;
  private readonly inner: ChatProvider;
  private readonly log: ExchangeWriter;
  constructor(inner: ChatProvider, log: ExchangeWriter) {
    this.inner = inner;
    this.log = log;
    this.name = inner.name;
    this.model = inner.model;
    this.kind = inner.kind;
    this.nativeTools = inner.nativeTools === true;
    this.images = inner.images === true;
  }

  outputTokenCap(maxTokens: number): number {
    return this.inner.outputTokenCap?.(maxTokens) ?? maxTokens;
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    // Numbered when sent, so the log keeps the order requests left in even if replies come back out of it.
    const seq = this.log.nextSeq();
    const reply = await this.inner.send(req);
    this.log.append(toExchange(seq, this.inner, req, reply));
    return reply;
  }
}
