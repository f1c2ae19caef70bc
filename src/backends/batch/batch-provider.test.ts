import { describe, expect, it } from 'vitest';
import { AnswerPendingError } from '../../core/errors.js';
import { openStore } from '../../store/db.js';
import { batchRequest, recordBatch, storeResults, unsubmittedRequests } from '../../store/batches-repo.js';
import { memoryResponseCache, sqliteResponseCache } from '../../store/response-cache-repo.js';
import { ProviderFailure, type ChatProvider, type ChatRequest } from '../llm/chat.js';
import { requestKey } from '../llm/guarded-chat.js';
import type { BatchApi } from './batch-api.js';
import { BatchProvider, batchNightCache, type BatchNightStore } from './batch-provider.js';

const api: BatchApi = {
  name: 'openai',
  model: 'gpt-4o-mini',
  maxRequests: 10,
  submit: () => Promise.resolve('B'),
  poll: () => Promise.resolve({ state: 'in_progress', status: 'in_progress' }),
  discard: () => Promise.resolve(),
};
const real: ChatProvider = {
  name: 'openai',
  model: 'gpt-4o-mini',
  kind: 'api',
  send: () => Promise.reject(new Error('a batch night never sends interactively')),
  batchApi: () => api,
};
const req = (text: string): ChatRequest => ({
  role: 'target',
  system: 'sys',
  messages: [{ role: 'user', content: text }],
  maxTokens: 100,
  temperature: 0,
});

function night(): BatchNightStore {
  return { db: openStore(':memory:'), project: '/p', now: () => 1, apis: new Map() };
}

describe('BatchProvider', () => {
  it('records an unanswered request (once) and waits; answers it once collected; fails a failed one', async () => {
    const n = night();
    const p = new BatchProvider(real, n);
    expect([...n.apis.keys()]).toEqual(['openai/gpt-4o-mini']);
    // The cache key of the real provider: a collected answer is the interactive night's cache entry.
    const id = requestKey(real, req('a'));
    await expect(p.send(req('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    await expect(p.send(req('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    await expect(p.send(req('b'))).rejects.toBeInstanceOf(AnswerPendingError);
    expect(unsubmittedRequests(n.db, '/p').map((r) => r.custom_id)).toEqual(
      [id, requestKey(real, req('b'))].sort(),
    );
    expect(JSON.parse(batchRequest(n.db, '/p', id)?.request ?? '')).toEqual(req('a'));
    const ids = [id, requestKey(real, req('b'))];
    recordBatch(n.db, {
      project: '/p',
      batchId: 'B',
      nightStarted: 1,
      provider: 'openai',
      attempt: 1,
      now: 2,
      customIds: ids,
    });
    storeResults(
      n.db,
      '/p',
      'B',
      [
        { customId: id, text: 'answer', inputTokens: 7, outputTokens: 3, error: '', errorKind: '' },
        {
          customId: ids[1] ?? '',
          text: null,
          inputTokens: 0,
          outputTokens: 0,
          error: 'bad request',
          errorKind: 'fatal',
        },
      ],
      3,
    );
    expect(await p.send(req('a'))).toEqual({ text: 'answer', usage: { inputTokens: 7, outputTokens: 3 } });
    const failure = await p.send(req('b')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ kind: 'fatal', message: 'bad request' });
  });

  it("the night's cache: earlier nights' entries hit, this night's batched requests do not; writes go to both", () => {
    const n = night();
    const stored = sqliteResponseCache(n.db, () => 1);
    const meta = { role: 'target', provider: 'openai', model: 'm' };
    stored.put('old', { text: 'from last night', inputTokens: 1, outputTokens: 1 }, meta);
    stored.put('batched', { text: 'collected earlier', inputTokens: 1, outputTokens: 1 }, meta);
    new BatchProvider(real, n);
    n.db
      .prepare(
        "INSERT INTO batch_requests (project, custom_id, provider, model, request, created_at) VALUES ('/p', 'batched', 'openai', 'm', '{}', 0)",
      )
      .run();
    const memory = memoryResponseCache();
    const cache = batchNightCache(memory, stored, n);
    expect(cache.get('old')?.text).toBe('from last night');
    expect(cache.get('batched')).toBeUndefined();
    cache.put('batched', { text: 'now', inputTokens: 2, outputTokens: 2 }, meta);
    expect(cache.get('batched')?.text).toBe('now');
    expect(stored.get('batched')?.text).toBe('now');
  });
});
