/**
 * A provider's batch engine, as a night sees it: submit a round of requests as one batch, poll it,
 * and read its results. The OpenAI Batch API (`openai-batch.ts`) and Anthropic Message Batches
 * (`anthropic-batch.ts`) implement it through their official SDKs.
 */
import type { CollectedResult } from '../../store/batches-repo.js';
import type { ChatRequest } from '../llm/chat.js';

export interface BatchItem {
  /** The request's response-cache key (64 hex digits: a valid custom_id for both providers). */
  customId: string;
  request: ChatRequest;
}

export type BatchPoll =
  | { state: 'in_progress'; status: string }
  | {
      state: 'expired' | 'failed';
      status: string;
      reason: string;
      /** Answers the batch finished before it lapsed (OpenAI keeps them in its output file). */
      results?: CollectedResult[];
    }
  | { state: 'completed'; status: string; results: CollectedResult[] };

export interface BatchApi {
  /** The backend name (`openai`, `azure-openai`, `anthropic`) and model the batch is for. */
  readonly name: string;
  readonly model: string;
  /** Most requests one batch may carry (the provider's limit). */
  readonly maxRequests: number;
  /** Submit the requests as one batch; returns its id. Throws `ProviderFailure` when refused. */
  submit(items: readonly BatchItem[]): Promise<string>;
  poll(batchId: string): Promise<BatchPoll>;
  /**
   * Remove what the provider keeps of a batch whose results are stored (OpenAI: its input, output and
   * error files; Anthropic: the batch and its results), so the night's prompts do not stay there.
   */
  discard(batchId: string): Promise<void>;
}

export interface BatchApiOptions {
  name: string;
  model: string;
  /** The endpoint named in failures (never the key). */
  where: string;
  keyVariable: string;
}

/** A result line that carries no answer. */
export const failedResult = (
  customId: string,
  error: string,
  errorKind: 'retryable' | 'fatal',
): CollectedResult => ({ customId, text: null, inputTokens: 0, outputTokens: 0, error, errorKind });
