/**
 * The answerer of a `--batch` night, below the guarded chat (so a request is already redacted and a
 * cache hit never reaches it): a request whose batch result was collected gets it, with the usage the
 * provider billed; a request that failed for good fails as the interactive request would; any other is
 * recorded for the next batch and the night stops to wait (`AnswerPendingError`). Its name and model
 * are the real provider's, so cache keys are those of an interactive night.
 */
import { AnswerPendingError } from '../../core/errors.js';
import type { Db } from '../../store/db.js';
import { addPendingRequest, batchRequest, isBatchRequest } from '../../store/batches-repo.js';
import type { CachedResponse, ResponseCache } from '../../store/response-cache-repo.js';
import { ProviderFailure, type ChatProvider, type ChatReply, type ChatRequest } from '../llm/chat.js';
import { requestKey } from '../llm/guarded-chat.js';
import type { BatchApi } from './batch-api.js';

/** Where a batch night keeps its requests, and the engines it submits them to (filled by the factory). */
export interface BatchNightStore {
  db: Db;
  project: string;
  now(): number;
  /** The batch engine of each `name/model` the night's roles use. */
  apis: Map<string, BatchApi>;
}

export const apiKey = (name: string, model: string): string => `${name}/${model}`;

export class BatchProvider implements ChatProvider {
  readonly name: string;
  readonly model: string;
  readonly kind = 'api' as const;
  readonly nativeTools: boolean;
  readonly images: boolean;
  private readonly real: ChatProvider;
  private readonly night: BatchNightStore;

  constructor(real: ChatProvider, night: BatchNightStore) {
    const api = real.batchApi?.();
    if (!api) throw new Error(`unreachable: ${real.name} has no batch engine`);
    this.real = real;
    this.night = night;
    this.name = real.name;
    this.model = real.model;
    this.nativeTools = real.nativeTools === true;
    this.images = real.images === true;
    night.apis.set(apiKey(real.name, real.model), api);
  }

  outputTokenCap(maxTokens: number): number {
    return this.real.outputTokenCap?.(maxTokens) ?? maxTokens;
  }

  send(req: ChatRequest): Promise<ChatReply> {
    return Promise.resolve().then(() => {
      const id = requestKey(this, req);
      const { db, project } = this.night;
      const row = batchRequest(db, project, id);
      if (row?.answer != null)
        return {
          text: row.answer,
          usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens },
        };
      // Failed for good (a retryable error was resubmitted once already): the night stops as it would interactively.
      if (row && row.error_kind !== '') throw new ProviderFailure(row.error, 'fatal');
      if (!row) {
        addPendingRequest(db, {
          project,
          customId: id,
          provider: this.name,
          model: this.model,
          request: JSON.stringify(req),
          now: this.night.now(),
        });
      }
      throw new AnswerPendingError(id);
    });
  }
}

/**
 * The response cache of a batch night. Each invocation replays the night from its start, so a
 * request this night batched is answered by the `BatchProvider` again (and counted again, at batch
 * prices) rather than by the store's cache: the budget then sees the night as one uninterrupted run.
 * Everything else (prompts cached by earlier nights) is a cache hit as in any night, and never batched;
 * every answer is written to the store's cache, where later nights find it.
 */
export function batchNightCache(
  memory: ResponseCache,
  store: ResponseCache,
  night: Pick<BatchNightStore, 'db' | 'project'>,
): ResponseCache {
  return {
    get(key, sessions): CachedResponse | undefined {
      const own = memory.get(key, sessions);
      if (own) return own;
      return isBatchRequest(night.db, night.project, key) ? undefined : store.get(key, sessions);
    },
    put(key, value, meta) {
      memory.put(key, value, meta);
      store.put(key, value, meta);
    },
  };
}
