/**
 * OpenAI Chat Completions through the official SDK: api.openai.com, any OpenAI-compatible server
 * (`base_url`: vLLM, Ollama, DeepSeek, ...) or Azure OpenAI (`AzureOpenAI`). The SDK's own retries are
 * off (`maxRetries: 0`): our retry loop counts every request against the budget.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import type { BatchApi } from '../../batch/batch-api.js';
import { OpenAiBatchApi } from '../../batch/openai-batch.js';
import { ProviderFailure, type ChatProvider, type ChatReply, type ChatRequest } from '../chat.js';
import { classifySdkError } from './api-errors.js';

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

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) refuse `max_tokens` (the SDK documents it as
 * "not compatible with o-series models") and any `temperature` but the default; they take
 * `max_completion_tokens`. Other models, including OpenAI-compatible servers, keep the classic pair.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split('/').at(-1) ?? '';
  return /^(o\d+|gpt-5)(\b|[-._])/.test(name);
}

/**
 * The most output tokens a request may bill. A reasoning model's `max_completion_tokens` also bounds
 * its hidden reasoning, so it gets room to think on top of the answer's cap (else a hard task can spend
 * it all thinking and answer nothing); the budget reserves the same bound.
 */
export function outputTokenCap(model: string, maxTokens: number): number {
  return isReasoningModel(model) ? maxTokens + Math.max(4096, 4 * maxTokens) : maxTokens;
}

function samplingParams(
  model: string,
  req: ChatRequest,
): { max_completion_tokens: number } | { max_tokens: number; temperature: number } {
  return isReasoningModel(model)
    ? { max_completion_tokens: outputTokenCap(model, req.maxTokens) }
    : { max_tokens: req.maxTokens, temperature: req.temperature };
}

/** The Chat Completions body of a request: the same for an interactive request and a batch line. */
export function chatCompletionBody(model: string, req: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: [
      ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
      ...req.messages.map((m) => ({ role: m.role, content: m.content })),
    ],
    ...samplingParams(model, req),
  };
}

/** A completion's text and usage (interactive or from a batch's output file). */
export function completionReply(
  completion: Pick<ChatCompletion, 'choices' | 'usage'>,
  provider: string,
  model: string,
  /** The output cap the request had (named in the failure), when known. */
  cap?: number,
): ChatReply {
  const choice = completion.choices[0];
  const text = choice?.message.content ?? '';
  if (text === '' && choice?.finish_reason === 'length') {
    // Not an answer to score 0: the cap ran out (while reasoning, on reasoning models).
    throw new ProviderFailure(
      `${provider} model ${model} used its whole output cap${cap === undefined ? '' : ` (${cap} tokens)`} without answering`,
      'fatal',
    );
  }
  return {
    text,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
  };
}

export class OpenAiProvider implements ChatProvider {
  readonly name: string;
  readonly model: string;
  readonly kind = 'api' as const;
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
    this.client ??= import('openai').then(({ default: OpenAIClient, AzureOpenAI }) => {
      const opts = this.opts;
      const common = { apiKey: opts.apiKey, maxRetries: 0, timeout: opts.timeoutMs };
      return opts.azure
        ? new AzureOpenAI({
            ...common,
            endpoint: opts.baseUrl,
            apiVersion: opts.azure.apiVersion,
            deployment: opts.model,
          })
        : new OpenAIClient({ ...common, ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}) });
    });
    return this.client;
  }

  /** The provider's batch engine (the Batch API), through the same client. */
  batchApi(): BatchApi {
    return new OpenAiBatchApi(() => this.sdk(), {
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
