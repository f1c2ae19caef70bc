/**
 * Anthropic Message Batches: the round's requests in one `messages.batches.create`, polled with
 * `.retrieve` until `processing_status` is `ended`, then `.results` streams one result a request.
 * A batch whose every result expired (or was canceled) counts as expired, so it is resubmitted once.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import type { ProviderFailure } from '../llm/chat.js';
import { classifySdkError } from '../llm/providers/api-errors.js';
import { messageParams, messageReply } from '../llm/providers/anthropic-body.js';
import type { CollectedResult } from '../../store/batches-repo.js';
import {
  failedResult,
  type BatchApi,
  type BatchApiOptions,
  type BatchItem,
  type BatchPoll,
} from './batch-api.js';

/** Error types Anthropic documents as passing (overload, rate limit, its own failure). */
const RETRYABLE_ERRORS = new Set(['overloaded_error', 'rate_limit_error', 'api_error', 'timeout_error']);

export class AnthropicBatchApi implements BatchApi {
  readonly name: string;
  readonly model: string;
  readonly maxRequests = 100_000;
  private readonly client: () => Promise<Anthropic>;
  private readonly opts: BatchApiOptions;

  constructor(client: () => Promise<Anthropic>, opts: BatchApiOptions) {
    this.client = client;
    this.opts = opts;
    this.name = opts.name;
    this.model = opts.model;
  }

  private fail(err: unknown): ProviderFailure {
    return classifySdkError(err, `${this.name} batch`, this.opts.where, this.opts.keyVariable);
  }

  async submit(items: readonly BatchItem[]): Promise<string> {
    try {
      const client = await this.client();
      const batch = await client.messages.batches.create({
        requests: items.map((i) => ({ custom_id: i.customId, params: messageParams(this.model, i.request) })),
      });
      return batch.id;
    } catch (err) {
      throw this.fail(err);
    }
  }

  async poll(batchId: string): Promise<BatchPoll> {
    try {
      const client = await this.client();
      const batch = await client.messages.batches.retrieve(batchId);
      const status = batch.processing_status;
      if (status !== 'ended') return { state: 'in_progress', status };
      const results: CollectedResult[] = [];
      let lapsed = 0;
      for await (const line of await client.messages.batches.results(batchId)) {
        const r = resultOf(line);
        if (r.lapsed) lapsed += 1;
        results.push(r.result);
      }
      if (results.length > 0 && lapsed === results.length)
        return { state: 'expired', status: 'expired', reason: 'every request expired or was canceled' };
      return { state: 'completed', status, results };
    } catch (err) {
      throw this.fail(err);
    }
  }

  async discard(batchId: string): Promise<void> {
    try {
      const client = await this.client();
      await client.messages.batches.delete(batchId);
    } catch (err) {
      throw this.fail(err);
    }
  }
}

function resultOf(line: MessageBatchIndividualResponse): { result: CollectedResult; lapsed: boolean } {
  const id = line.custom_id;
  const r = line.result;
  if (r.type === 'succeeded') {
    const reply = messageReply(r.message);
    return {
      result: { customId: id, text: reply.text, ...reply.usage, error: '', errorKind: '' },
      lapsed: false,
    };
  }
  if (r.type === 'errored') {
    const type = r.error.error.type;
    const kind = RETRYABLE_ERRORS.has(type) ? 'retryable' : 'fatal';
    return {
      result: failedResult(id, `anthropic batch request failed: ${type}: ${r.error.error.message}`, kind),
      lapsed: false,
    };
  }
  return { result: failedResult(id, `anthropic batch request ${r.type}`, 'retryable'), lapsed: true };
}
