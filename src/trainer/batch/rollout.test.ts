import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../backends/mock/mock-backend.js';
import { zeroUsage } from '../../core/usage.js';
import { InputError } from '../../core/errors.js';
import { loadDataset } from './dataset.js';
import { Rollouts } from './rollout.js';

function jsonl(lines: unknown[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-ds-')), 'd.jsonl');
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

describe('loadDataset', () => {
  it('reads answer, checks and rubric items with their splits', () => {
    const d = loadDataset(
      jsonl([
        { id: 1, input: 'q', answer: ['a', 'b'], split: 'train', draft: 'x' },
        { id: 'c', input: 'q', checks: [{ op: 'contains', arg: 'pnpm' }], split: 'valid' },
        '',
        { id: 'r', input: 'q', rubric: 'mentions pnpm', split: 'test' },
      ]),
    );
    expect(d.train[0]?.answers).toEqual(['a', 'b']);
    expect(d.train[0]?.task).toMatchObject({ id: '1', reference_kind: 'exact', attempted_solution: 'x' });
    expect(d.val[0]?.task.reference_kind).toBe('rule');
    expect(d.test[0]?.task).toMatchObject({ reference_kind: 'rubric', reference: 'mentions pnpm' });
  });

  it('names the line and the field of a bad item', () => {
    expect(() => loadDataset(jsonl([{ id: 'a', input: 'q', answer: 'x' }]))).toThrow(
      /d\.jsonl:1: field "split"/,
    );
    expect(() => loadDataset(jsonl([{ id: 'a', input: 'q', split: 'train' }]))).toThrow(/exactly one of/);
    expect(() =>
      loadDataset(jsonl([{ id: 'a', input: 'q', answer: 'x', rubric: 'y', split: 'train' }])),
    ).toThrow(/exactly one of/);
    expect(() => loadDataset(jsonl(['{bad']))).toThrow(/d\.jsonl:1: invalid JSON/);
    expect(() =>
      loadDataset(
        jsonl([
          { id: 'a', input: 'q', answer: 'x', split: 'train' },
          { id: 'a', input: 'q', answer: 'y', split: 'val' },
        ]),
      ),
    ).toThrow(/:2: duplicate id "a"/);
    expect(() => loadDataset(jsonl([]))).toThrow(InputError);
  });
});

describe('Rollouts cache', () => {
  it('reuses saved rollouts only for the very same skill, across instances', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sos-roll-'));
    const { items } = loadDataset(
      jsonl([{ id: 'a', input: 'q', answer: 'pnpm test', draft: 'npm test', split: 'val' }]),
    );
    let calls = 0;
    const backend = new MockBackend();
    const attempt = backend.attempt.bind(backend);
    backend.attempt = (req) => {
      calls++;
      return attempt(req);
    };
    const first = await new Rollouts(backend, 2, zeroUsage(), '', dir).run(items, 'skill A');
    expect(calls).toBe(1);
    expect(first[0]).toMatchObject({ hard: 0 });
    const again = new Rollouts(backend, 2, zeroUsage(), '', dir);
    await again.run(items, 'skill A');
    expect(calls).toBe(1);
    const fixed = await again.run(items, 'Use "pnpm" instead of "npm".');
    expect(calls).toBe(2);
    expect(fixed[0]?.hard).toBe(1);
    // Another target model is another cache.
    await new Rollouts(backend, 2, zeroUsage(), 'other-model', dir).run(items, 'skill A');
    expect(calls).toBe(3);
  });
});
