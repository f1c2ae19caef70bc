import { existsSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../core/logger.js';
import { openStore } from '../store/db.js';
import { addPendingRequest, batchJobs, batchRequest, unsubmittedRequests } from '../store/batches-repo.js';
import type { BatchApi, BatchItem, BatchPoll } from '../backends/batch/batch-api.js';
import { ProviderFailure } from '../backends/llm/chat.js';
import {
  batchSummary,
  discardBatchNight,
  keepBatchNight,
  openBatchNight,
  pollBatches,
  submitPending,
} from './batch-night.js';

/** A batch engine that answers polls from a script (one entry a poll; then "completed" with echoes). */
function scriptedApi(script: Array<BatchPoll['state'] | 'network'>, maxRequests = 10) {
  const submitted: BatchItem[][] = [];
  const discarded: string[] = [];
  const api: BatchApi = {
    discard: (id) => {
      discarded.push(id);
      return id === 'B2' ? Promise.reject(new Error('gone already')) : Promise.resolve();
    },
    name: 'openai',
    model: 'm',
    maxRequests,
    submit: (items) => {
      submitted.push([...items]);
      return Promise.resolve(`B${submitted.length}`);
    },
    poll: (id) => {
      const next = script.shift() ?? 'completed';
      if (next === 'network') return Promise.reject(new ProviderFailure('connection reset', 'retryable'));
      if (next === 'in_progress') return Promise.resolve({ state: 'in_progress', status: 'in_progress' });
      if (next === 'expired' || next === 'failed')
        return Promise.resolve({ state: next, status: next, reason: `scripted ${next}` });
      const items = submitted[Number(id.slice(1)) - 1] ?? [];
      return Promise.resolve({
        state: 'completed',
        status: 'completed',
        results: items.map((i) => ({
          customId: i.customId,
          text: `answer ${i.customId}`,
          inputTokens: 1,
          outputTokens: 1,
          error: '',
          errorKind: '' as const,
        })),
      });
    },
  };
  return { api, submitted, discarded };
}

function setup(script: Parameters<typeof scriptedApi>[0], requests = 3, maxRequests = 10) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-batch-'));
  const db = openStore(':memory:');
  const night = openBatchNight(home, db, '/p', () => 1000);
  const { api, submitted, discarded } = scriptedApi(script, maxRequests);
  night.store.apis.set('openai/m', api);
  for (let i = 0; i < requests; i++)
    addPendingRequest(db, {
      project: '/p',
      customId: `r${i}`,
      provider: 'openai',
      model: 'm',
      request: JSON.stringify({ role: 'target', system: '', messages: [], maxTokens: 1, temperature: 0 }),
      now: i,
    });
  return { home, db, night, submitted, discarded, logger: memoryLogger() };
}

describe('batch night', () => {
  it('keeps its start across invocations in a private folder, and forgets everything when discarded', () => {
    const { home, db, night } = setup([]);
    // Nothing is written before the night has something to keep.
    expect(existsSync(night.dir)).toBe(false);
    expect(openBatchNight(home, db, '/p', () => 5000).started).toBe(5000);
    keepBatchNight(night);
    expect(statSync(night.dir).mode & 0o777).toBe(0o700);
    expect(openBatchNight(home, db, '/p', () => 5000).started).toBe(1000);
    discardBatchNight(night);
    expect(existsSync(night.dir)).toBe(false);
    expect(unsubmittedRequests(db, '/p')).toEqual([]);
  });

  it('submits one batch per round within the provider limit, waits while it runs, then collects it', async () => {
    const { db, night, submitted, discarded, logger } = setup(['in_progress', 'network'], 3, 2);
    expect(await submitPending(night, logger)).toBe(2);
    expect(submitted.map((s) => s.length)).toEqual([2, 1]);
    expect(unsubmittedRequests(db, '/p')).toEqual([]);
    expect(await pollBatches(night, logger)).toEqual({ kind: 'waiting' });
    expect(logger.lines.join('\n')).toMatch(/connection reset; polled again on the next run/);
    expect(await pollBatches(night, logger)).toEqual({ kind: 'ready' });
    expect(batchRequest(db, '/p', 'r2')?.answer).toBe('answer r2');
    expect(batchSummary(night)).toMatchObject({ requests: 3, answered: 3, price_factor: 0.5 });
    // Collected batches are removed from the provider; a failure to remove one is only a warning.
    expect(discarded).toEqual(['B1', 'B2']);
    expect(logger.lines.join('\n')).toMatch(/could not remove B2 from openai: gone already/);
  });

  it('resubmits an expired batch once; a second failure ends the night', async () => {
    const { night, submitted, logger } = setup(['expired', 'failed']);
    await submitPending(night, logger);
    expect(await pollBatches(night, logger)).toEqual({ kind: 'waiting' });
    expect(submitted).toHaveLength(2);
    expect(submitted[1]?.map((i) => i.customId)).toEqual(['r0', 'r1', 'r2']);
    const ended = await pollBatches(night, logger);
    expect(ended).toEqual({
      kind: 'failed',
      reason: 'the batch B2 (openai) failed again after one resubmission: scripted failed',
    });
    expect(batchJobs(night.store.db, '/p').map((j) => [j.batch_id, j.state, j.attempt])).toEqual([
      ['B1', 'retried', 1],
      ['B2', 'failed', 2],
    ]);
  });
});
