/**
 * OpenAI Chat Completions through the official SDK: api.openai.com, any OpenAI-compatible server
 * (`base_url`: vLLM, Ollama, DeepSeek, ...) or Azure OpenAI (`AzureOpenAI`). The SDK's own retries are
 * off (`maxRetries: 0`): our retry loop counts every request against the budget.
 */
import type OpenAI from 'openai';
import type { BatchApi } from '../../batch/batch-api.js';
import { OpenAiBatchApi } from '../../batch/openai-batch.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../chat.js';
import { classifySdkError } from './api-errors.js';
import { chatCompletionBody, completionReply, outputTokenCap } from './openai-body.js';

export { isReasoningModel, outputTokenCap } from './openai-body.js';

export interface OpenAiOptions {
  model: string;
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  /** The environment variable the key came from, named in auth failures. */
  keyVariable: string;
  /** Azure: `baseUrl` is the resource endpoint and `model` the deployment. */
  azure?: { apiVersion: string };
}

export class OpenAiProvider implements ChatProvider {
  readonly name: string;
  readonly model: string;
  readonly kind = 'api' as const;
  readonly nativeTools = true;
  readonly images = true;
  private client: Promise<OpenAI> | null = null;
  private readonly opts: OpenAiOptions;
  private readonly where: string;
  private readonly keyVariable: string;

  constructor(opts: OpenAiOptions) {
    this.opts = opts;
    this.model = opts.model;
    this.keyVariable = opts.keyVariable;
    this.name = opts.azure ? 'azure-openai' : 'openai';
    this.where = opts.baseUrl || 'https://api.openai.com/v1';
  }

  outputTokenCap(maxTokens: number): number {
    return outputTokenCap(this.model, maxTokens);
  }

  /** The SDK is loaded on the first request, so commands that never call a model start fast. */
  private sdk(): Promise<OpenAI> {
    this.client ??= this.newClient(true);
    return this.client;
  }

  /** `deployment`: Azure routes the request by its deployment (chat); its files and batches are not. */
  private newClient(deployment: boolean): Promise<OpenAI> {
    return import('openai').then(({ default: OpenAIClient, AzureOpenAI }) => {
      const opts = this.opts;
      const common = { apiKey: opts.apiKey, maxRetries: 0, timeout: opts.timeoutMs };
      return opts.azure
        ? new AzureOpenAI({
            ...common,
            endpoint: opts.baseUrl,
            apiVersion: opts.azure.apiVersion,
            ...(deployment ? { deployment: opts.model } : {}),
          })
        : new OpenAIClient({ ...common, ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}) });
    });
  }

  /** The provider's batch engine (the Batch API); each line names the model (Azure: the deployment). */
  batchApi(): BatchApi {
    let client: Promise<OpenAI> | null = null;
    const batchClient = (): Promise<OpenAI> =>
      (client ??= this.opts.azure ? this.newClient(false) : this.sdk());
    return new OpenAiBatchApi(batchClient, {
      name: this.name,
      model: this.model,
      where: this.where,
      keyVariable: this.keyVariable,
      // Azure's batch lines and endpoint have no /v1 (its deployments route by path).
      endpoint: this.opts.azure ? '/chat/completions' : '/v1/chat/completions',
    });
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    try {
      const client = await this.sdk();
      const completion = await client.chat.completions.create(chatCompletionBody(this.model, req));
      return completionReply(completion, this.name, this.model, outputTokenCap(this.model, req.maxTokens));
    } catch (err) {
      throw classifySdkError(err, this.name, this.where, this.keyVariable);
    }
  }
}
