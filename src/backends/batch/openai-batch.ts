/**
 * The OpenAI Batch API (also Azure OpenAI's): the round's requests as a JSONL file (`files.create`,
 * purpose `batch`), one batch over it (`batches.create`, 24 h window), polled with `batches.retrieve`;
 * its output and error files (`files.content`) hold one line per request with its `custom_id`.
 */
import type OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ProviderFailure } from '../llm/chat.js';
import { kindOfStatus } from '../llm/chat.js';
import { classifySdkError } from '../llm/providers/api-errors.js';
import { chatCompletionBody, completionReply } from '../llm/providers/openai-body.js';
import type { CollectedResult } from '../../store/batches-repo.js';
import {
  failedResult,
  type BatchApi,
  type BatchApiOptions,
  type BatchItem,
  type BatchPoll,
} from './batch-api.js';

interface OutputLine {
  custom_id?: unknown;
  response?: { status_code?: unknown; body?: unknown } | null;
  error?: { code?: unknown; message?: unknown } | null;
}

export class OpenAiBatchApi implements BatchApi {
  readonly name: string;
  readonly model: string;
  readonly maxRequests = 50_000;
  private readonly client: () => Promise<OpenAI>;
  private readonly opts: BatchApiOptions & { endpoint: '/v1/chat/completions' | '/chat/completions' };

  constructor(
    client: () => Promise<OpenAI>,
    opts: BatchApiOptions & { endpoint: '/v1/chat/completions' | '/chat/completions' },
  ) {
    this.client = client;
    this.opts = opts;
    this.name = opts.name;
    this.model = opts.model;
  }

  private fail(err: unknown): ProviderFailure {
    return classifySdkError(err, `${this.name} batch`, this.opts.where, this.opts.keyVariable);
  }

  async submit(items: readonly BatchItem[]): Promise<string> {
    const jsonl = items
      .map((i) =>
        JSON.stringify({
          custom_id: i.customId,
          method: 'POST',
          url: this.opts.endpoint,
          body: chatCompletionBody(this.model, i.request),
        }),
      )
      .join('\n');
    try {
      const client = await this.client();
      const { toFile } = await import('openai');
      const file = await client.files.create({
        file: await toFile(Buffer.from(`${jsonl}\n`, 'utf8'), 'skillopt-sleep-batch.jsonl'),
        purpose: 'batch',
      });
      const batch = await client.batches.create({
        input_file_id: file.id,
        // Azure documents `/chat/completions` (no /v1), which the SDK's type does not list.
        endpoint: this.opts.endpoint as '/v1/chat/completions',
        completion_window: '24h',
      });
      return batch.id;
    } catch (err) {
      throw this.fail(err);
    }
  }

  async poll(batchId: string): Promise<BatchPoll> {
    try {
      const client = await this.client();
      const batch = await client.batches.retrieve(batchId);
      const status = batch.status;
      const read = async (ids: Array<string | undefined>): Promise<CollectedResult[]> => {
        const lines: OutputLine[] = [];
        for (const fileId of ids) {
          if (!fileId) continue;
          const text = await (await client.files.content(fileId)).text();
          lines.push(...parseLines(text));
        }
        return lines.flatMap((l) => this.result(l));
      };
      if (status === 'expired') {
        // What finished before the window closed is in the output file: only the rest goes again.
        const done = (await read([batch.output_file_id])).filter((r) => r.text !== null);
        return { state: 'expired', status, reason: 'the 24 h window passed', results: done };
      }
      if (status === 'failed' || status === 'cancelled') {
        const why = batch.errors?.data?.map((e) => e.message ?? e.code ?? '').join('; ') || status;
        return { state: 'failed', status, reason: why };
      }
      if (status !== 'completed') return { state: 'in_progress', status };
      return { state: 'completed', status, results: await read([batch.output_file_id, batch.error_file_id]) };
    } catch (err) {
      throw this.fail(err);
    }
  }

  async discard(batchId: string): Promise<void> {
    try {
      const client = await this.client();
      const batch = await client.batches.retrieve(batchId);
      for (const id of [batch.input_file_id, batch.output_file_id, batch.error_file_id])
        if (id) await client.files.delete(id);
    } catch (err) {
      throw this.fail(err);
    }
  }

  private result(line: OutputLine): CollectedResult[] {
    if (typeof line.custom_id !== 'string') return [];
    const id = line.custom_id;
    const code = typeof line.response?.status_code === 'number' ? line.response.status_code : undefined;
    if (line.error || code !== 200) {
      const message = typeof line.error?.message === 'string' ? line.error.message : `HTTP ${code ?? '?'}`;
      const kind = kindOfStatus(code) === 'retryable' ? 'retryable' : 'fatal';
      return [failedResult(id, `${this.name} batch request failed: ${message}`, kind)];
    }
    const body = line.response?.body as Pick<ChatCompletion, 'choices' | 'usage'> | undefined;
    if (!body || !Array.isArray(body.choices))
      return [failedResult(id, `${this.name} batch result without a completion`, 'fatal')];
    try {
      const reply = completionReply(body, this.name, this.model);
      return [{ customId: id, text: reply.text, ...reply.usage, error: '', errorKind: '' }];
    } catch (err) {
      return [failedResult(id, err instanceof Error ? err.message : String(err), 'fatal')];
    }
  }
}

/** A results file: one JSON object a line; an unreadable line is skipped (its request is put back). */
function parseLines(text: string): OutputLine[] {
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      const value = JSON.parse(line) as unknown;
      return typeof value === 'object' && value !== null ? [value] : [];
    } catch {
      return [];
    }
  });
}
