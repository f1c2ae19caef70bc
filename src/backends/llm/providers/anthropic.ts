/** Anthropic Messages through the official SDK (`base_url` for proxies); SDK retries off, ours count. */
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatProvider, ChatReply, ChatRequest } from '../chat.js';
import type { BatchApi } from '../../batch/batch-api.js';
import { AnthropicBatchApi } from '../../batch/anthropic-batch.js';
import { classifySdkError } from './api-errors.js';
import { messageParams, messageReply } from './anthropic-body.js';

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
  readonly nativeTools = true;
  readonly images = true;
  private client: Promise<Anthropic> | null = null;
  private readonly opts: AnthropicOptions;
  private readonly where: string;
  private readonly keyVariable: string;

  constructor(opts: AnthropicOptions) {
    this.opts = opts;
    this.model = opts.model;
    this.keyVariable = opts.keyVariable;
    this.where = opts.baseUrl || 'https://api.anthropic.com';
  }

  /** The SDK is loaded on the first request, so commands that never call a model start fast. */
  private sdk(): Promise<Anthropic> {
    this.client ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicClient }) =>
        new AnthropicClient({
          apiKey: this.opts.apiKey,
          maxRetries: 0,
          timeout: this.opts.timeoutMs,
          ...(this.opts.baseUrl ? { baseURL: this.opts.baseUrl } : {}),
        }),
    );
    return this.client;
  }

  /** The provider's batch engine (Message Batches), through the same client. */
  batchApi(): BatchApi {
    return new AnthropicBatchApi(() => this.sdk(), {
      name: this.name,
      model: this.model,
      where: this.where,
      keyVariable: this.keyVariable,
    });
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    try {
      const client = await this.sdk();
      const message = await client.messages.create(messageParams(this.model, req));
      return messageReply(message);
    } catch (err) {
      throw classifySdkError(err, this.name, this.where, this.keyVariable);
    }
  }
}
