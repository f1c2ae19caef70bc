import { describe, expect, it } from 'vitest';
import { openStore } from './db.js';
import {
  addPendingRequest,
  batchJobs,
  batchRequest,
  dropBatchNight,
  isBatchRequest,
  recordBatch,
  requestCounts,
  storeResults,
  unsubmittedRequests,
  type CollectedResult,
} from './batches-repo.js';

const P = '/p';
const ok = (customId: string, text: string): CollectedResult => ({
  customId,
  text,
  inputTokens: 10,
  outputTokens: 2,
  error: '',
  errorKind: '',
});
const failed = (customId: string, errorKind: 'retryable' | 'fatal'): CollectedResult => ({
  customId,
  text: null,
  inputTokens: 0,
  outputTokens: 0,
  error: `boom ${errorKind}`,
  errorKind,
});

function withRequests(ids: string[]) {
  const db = openStore(':memory:');
  for (const [i, id] of ids.entries())
    addPendingRequest(db, {
      project: P,
      customId: id,
      provider: 'openai',
      model: 'm',
      request: '{}',
      now: i,
    });
  return db;
}

describe('batches repo', () => {
  it('records a request once and submits it in one batch', () => {
    const db = withRequests(['a', 'b']);
    addPendingRequest(db, {
      project: P,
      customId: 'a',
      provider: 'openai',
      model: 'm',
      request: '{"x":1}',
      now: 9,
    });
    expect(batchRequest(db, P, 'a')?.request).toBe('{}');
    expect(unsubmittedRequests(db, P).map((r) => r.custom_id)).toEqual(['a', 'b']);
    recordBatch(db, {
      project: P,
      batchId: 'B1',
      nightStarted: 1,
      provider: 'openai',
      attempt: 1,
      now: 5,
      customIds: ['a', 'b'],
    });
    expect(unsubmittedRequests(db, P)).toEqual([]);
    expect(batchJobs(db, P)).toEqual([
      expect.objectContaining({ batch_id: 'B1', state: 'in_progress', attempt: 1, request_count: 2 }),
    ]);
    expect(isBatchRequest(db, P, 'a')).toBe(true);
    expect(isBatchRequest(db, '/other', 'a')).toBe(false);
  });

  it('stores answers; a retryable error goes back once, then stays; a fatal or missing one is kept', () => {
    const db = withRequests(['a', 'b', 'c', 'd']);
    const submit = (id: string, ids: string[]) =>
      recordBatch(db, {
        project: P,
        batchId: id,
        nightStarted: 1,
        provider: 'openai',
        attempt: 1,
        now: 5,
        customIds: ids,
      });
    submit('B1', ['a', 'b', 'c', 'd']);
    // d is missing from the results: it goes back like a retryable error.
    storeResults(db, P, 'B1', [ok('a', 'A'), failed('b', 'retryable'), failed('c', 'fatal')], 6);
    expect(batchRequest(db, P, 'a')).toMatchObject({ answer: 'A', input_tokens: 10, output_tokens: 2 });
    expect(batchRequest(db, P, 'c')).toMatchObject({ answer: null, error_kind: 'fatal' });
    expect(unsubmittedRequests(db, P).map((r) => [r.custom_id, r.attempt])).toEqual([
      ['b', 1],
      ['d', 1],
    ]);
    expect(batchJobs(db, P)[0]?.state).toBe('collected');
    submit('B2', ['b', 'd']);
    storeResults(db, P, 'B2', [failed('b', 'retryable'), ok('d', 'D')], 7);
    expect(batchRequest(db, P, 'b')).toMatchObject({ answer: null, error_kind: 'retryable' });
    expect(unsubmittedRequests(db, P)).toEqual([]);
    expect(requestCounts(db, P)).toEqual({ requests: 4, answered: 2 });
    dropBatchNight(db, P);
    expect(requestCounts(db, P)).toEqual({ requests: 0, answered: 0 });
    expect(batchJobs(db, P)).toEqual([]);
  });
});
