import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';
import { fitContext, scoreSearchQa } from './index.js';

describe('searchqa: loading', () => {
  it("reads lucadiliello/searchqa's Parquet rows and honours the split manifest", async () => {
    const { prepared } = await openFixture('searchqa');
    const ids = (split: 'train' | 'val' | 'test') => prepared.data[split].map((i) => i.task.id.slice(0, 4));
    expect([ids('train'), ids('val'), ids('test')]).toEqual([
      ['4c1f', '9b2e', 'e7a3'],
      ['2d8f', '6a0d'],
      ['c3e9'],
    ]);
    // The row the manifest does not list is left out.
    expect(prepared.data.items).toHaveLength(6);
    const first = prepared.data.train[0];
    expect(first?.answers).toEqual(['William Seward', 'Seward']);
    expect(first?.task.intent).toMatch(/^In 1867 this U\.S\. Secretary of State/);
    expect(prepared.skill).toMatch(/^# Question Answering Skill/);
  });

  it('without a manifest, shuffles with the seed and cuts by split_ratio (largest remainders)', async () => {
    const a = await openFixture('searchqa', ['split_dir=""']);
    const b = await openFixture('searchqa', ['split_dir=""']);
    const counts = [a.prepared.data.train, a.prepared.data.val, a.prepared.data.test].map((s) => s.length);
    // 7 rows at 2:1:7 = 1.4, 0.7, 4.9 → floors 1, 0, 4, the two left to the largest remainders (test, val).
    expect(counts).toEqual([1, 1, 5]);
    expect(a.prepared.data.items.map((i) => i.task.id)).toEqual(b.prepared.data.items.map((i) => i.task.id));
    expect((await openFixture('searchqa', ['split_dir=""', 'limit=2'])).prepared.data.test).toHaveLength(2);
  });

  it('refuses a manifest whose ids the data lacks, naming them', async () => {
    await expect(openFixture('searchqa', ['split_dir=.'])).rejects.toThrow(/no train\/ folder/);
  });
});

describe('searchqa: scoring as the official SQuAD script', () => {
  it.each([
    // [gold answers, reply, hard, soft] — checked by hand against evaluate-v1.1.py's normalisation
    [['William Seward', 'Seward'], '<answer>William H. Seward</answer>', 0, 0.8],
    [['Pisa'], 'reasoning...\n<answer>Pisa, Italy</answer>', 0, 2 / 3],
    [['the Bering Strait', 'Bering Strait'], '<ANSWER> The  Bering Strait. </ANSWER>', 1, 1],
    [['iron'], 'I think it is iron\nIron', 1, 1],
    [['Ernest Hemingway'], '<answer>a</answer>', 0, 0],
    [['Ernest Hemingway'], '<answer>first</answer> then <answer>Hemingway</answer>', 0, 2 / 3],
    [['São Paulo'], '<answer>the São Paulo</answer>', 1, 1],
    [['théâtre'], '<answer>théâtre</answer>', 1, 1],
    // "an" inside a word is no article: Python's \b is Unicode-aware.
    [['anémone'], '<answer>émone</answer>', 0, 0],
  ] as const)('%j vs %j → EM %d, F1 %d', (golds, reply, hard, soft) => {
    const s = scoreSearchQa(golds, reply);
    expect(s.hard).toBe(hard);
    expect(s.soft).toBeCloseTo(soft, 10);
  });

  it('cuts the snippets at a [DOC] boundary, or hard when the first one alone is too long', () => {
    const ctx = `[DOC] ${'a'.repeat(300)} [DOC] ${'b'.repeat(300)}`;
    expect(fitContext(ctx, 400)).toBe(`[DOC] ${'a'.repeat(300)} `);
    expect(fitContext(`x${'a'.repeat(500)}`, 300)).toMatch(/\.\.\.\[truncated\]$/);
  });
});

describe('searchqa: rollouts', () => {
  it('on the mock: the skill reaches the system prompt and the reply is scored by the scorer', async () => {
    const opened = await openFixture('searchqa');
    const item = opened.prepared.data.train[0];
    if (!item) throw new Error('fixture');
    const conversation = await opened.instance.prompt?.(item, 'Always give the full name.');
    expect(conversation?.system).toContain('## Skill\nAlways give the full name.');
    expect(conversation?.messages[0]?.content).toMatch(/^## Context\n\[DOC\][\s\S]*\n\n## Question\nIn 1867/);
    const [r] = await rollAll(opened, new MockBackend(), [item]);
    expect(r?.response).toMatch(/^approximately /);
    expect(r?.score).toEqual(scoreSearchQa(item.answers, r?.response ?? ''));
  });

  it('on a recorded real-model exchange: every item answered from the log and scored by hand-checked values', async () => {
    const opened = await openFixture('searchqa');
    const results = await rollAll(opened, recordedBackend('searchqa'));
    expect(results.map((r) => r.score.hard)).toEqual([0, 0, 1, 1, 1, 1]);
    expect(results.map((r) => Number(r.score.soft.toFixed(4)))).toEqual([0.8, 0.6667, 1, 1, 1, 1]);
    expect(results[0]?.score.rationale).toMatch(/EM=0: predicted "William H. Seward" but expected/);
  });
});
