/** Anthropic Messages through the official SDK (`base_url` for proxies); SDK retries off, ours count. */
import Anthropic from '@anthropic-ai/sdk';
import type { ChatProvider, ChatReply, ChatRequest } from '../chat.js';
import { classifySdkError } from './api-errors.js';

export interface AnthropicOptions {
  model: string;
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  /** The environment variable the key came from, named in auth failures. */
  keyVariable: string;
}

export class AnthropicProvider implements ChatProvider {
  readonly name = 'anthropic';
  readonly model: string;
  readonly kind = 'api' as const;
  private readonly client: Anthropic;
  private readonly where: string;
  private readonly keyVariable: string;

  constructor(opts: AnthropicOptions) {
    this.model = opts.model;
    this.keyVariable = opts.keyVariable;
    this.client = new Anthropic({
      apiKey: opts.apiKey,
      maxRetries: 0,
      timeout: opts.timeoutMs,
      ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}),
    });
    this.where = this.client.baseURL;
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    try {
      const message = await this.client.messages.create({
        model: this.model,
        max_tokens: req.maxTokens,
        ...(req.system ? { system: req.system } : {}),
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      });
      const text = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('')
        .trim();
      return {
        text,
        usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
      };
    } catch (err) {
      throw classifySdkError(err, this.name, this.where, this.keyVariable);
    }
  }
}
