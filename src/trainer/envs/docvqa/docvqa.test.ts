import { describe, expect, it } from 'vitest';
import { createBackend } from '../../../backends/factory.js';
import { chatCompletionBody } from '../../../backends/llm/providers/openai-body.js';
import { messageParams } from '../../../backends/llm/providers/anthropic-body.js';
import { ReplaySource } from '../../../backends/recording/replay-provider.js';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import type { ChatRequest } from '../../../backends/llm/chat.js';
import { configSchema } from '../../../config/schema.js';
import { systemClock } from '../../../core/clock.js';
import { silentLogger } from '../../../core/logger.js';
import { checkTargetFits } from '../../batch/env-data.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';
import { anls, anlsOne, docvqaAnswer } from './anls.js';
import { scoreDocVqa } from './index.js';

const PNG_MAGIC = 'iVBORw0KGgo';

describe('docvqa: loading', () => {
  it("reads lmms-lab/DocVQA's Parquet files, skips rows without answers, honours the manifest", async () => {
    const { prepared } = await openFixture('docvqa');
    const ids = (s: 'train' | 'val' | 'test') => prepared.data[s].map((i) => i.task.id);
    expect([ids('train'), ids('val'), ids('test')]).toEqual([
      ['61001', '61003', '61005'],
      ['61002', '61004'],
      ['61006'],
    ]);
    expect(prepared.data.val[0]?.answers).toEqual(['$1,250.00', '1,250.00']);
    expect(prepared.data.train[2]?.task.tags).toEqual(['type:table/list']);
  });

  it("sends the item's page as a PNG image with the question", async () => {
    const opened = await openFixture('docvqa');
    const item = opened.prepared.data.train[1];
    if (!item) throw new Error('fixture');
    const sent = await opened.instance.prompt?.(item, 'Copy names exactly.');
    expect(sent?.system).toContain('## Skill\nCopy names exactly.');
    const message = sent?.messages[0];
    expect(message?.content).toBe('## Question\nWho is the memo from?');
    expect(message?.images?.map((i) => i.mediaType)).toEqual(['image/png']);
    expect(message?.images?.[0]?.data.startsWith(PNG_MAGIC)).toBe(true);
  });
});

describe('docvqa: ANLS as the official metric', () => {
  it.each([
    // [answer, golds, ANLS] — by hand: 1 - levenshtein / max length, 0 at 0.5 or more
    ['4471', ['4471'], 1],
    ['  Budget Review  Meeting ', ['Budget review meeting'], 1],
    ['95mg', ['95 mg'], 0.8],
    ['1,250', ['$1,250.00', '1,250.00'], 1 - 3 / 8],
    ['Alvarez J', ['J. Alvarez'], 0],
    ['', ['x'], 0],
    ['', [''], 1],
    ['café', ['cafe'], 0.75], // code points, not bytes
  ] as const)('%j vs %j → %d', (answer, golds, value) => {
    expect(anls(answer, golds)).toBeCloseTo(value, 10);
  });

  it('reads the answer between the last tags, else the last line; hard is ANLS ≥ 0.999', () => {
    expect(docvqaAnswer('x <answer>a</answer> then <ANSWER>b</ANSWER>')).toBe('b');
    expect(docvqaAnswer('thinking\n\n 120 ')).toBe('120');
    expect(anlsOne('abcd', 'abce', 0.2)).toBe(0); // distance 0.25 reaches the threshold
    expect(scoreDocVqa(['95 mg'], '<answer>95mg</answer>')).toMatchObject({ hard: 0, soft: 0.8 });
    expect(scoreDocVqa(['120'], '<answer>120</answer>')).toMatchObject({ hard: 1, soft: 1 });
  });
});

describe('docvqa: images in the chat abstraction', () => {
  const req: ChatRequest = {
    role: 'target',
    system: 's',
    messages: [{ role: 'user', content: 'q', images: [{ mediaType: 'image/png', data: 'AAAA' }] }],
    maxTokens: 10,
    temperature: 0,
  };

  it('OpenAI gets text and image_url parts; Anthropic image blocks then the text', () => {
    expect(chatCompletionBody('gpt-4.1-mini', req).messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'q' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
    expect(messageParams('claude-x', req).messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'text', text: 'q' },
      ],
    });
    // Without images a message stays a plain string.
    expect(
      chatCompletionBody('gpt-4.1-mini', { ...req, messages: [{ role: 'user', content: 'q' }] }).messages[1],
    ).toEqual({
      role: 'user',
      content: 'q',
    });
  });

  it('a backend whose target cannot read images is refused before any call, and its converse refuses too', async () => {
    const opened = await openFixture('docvqa');
    const config = configSchema.parse({ backend: 'claude-code', max_cost_usd: null });
    const cli = createBackend(config, {
      env: {},
      clock: systemClock,
      logger: silentLogger,
      db: null,
      replay: new ReplaySource([], 'hash'),
    });
    expect(() => checkTargetFits(opened.instance, cli, 'docvqa')).toThrow(
      /env docvqa shows the target images, which the claude-code backend cannot read/,
    );
    const item = opened.prepared.data.train[0];
    if (!item) throw new Error('fixture');
    const sent = await opened.instance.prompt?.(item, '');
    await expect(
      cli.converse?.({
        task: item.task,
        system: sent?.system ?? '',
        messages: sent?.messages ?? [],
        maxTokens: 10,
        sampleId: 0,
      }),
    ).rejects.toThrow(/the claude-code target cannot read images/);
    expect(() => checkTargetFits(opened.instance, new MockBackend(), 'docvqa')).not.toThrow();
    expect(() => checkTargetFits(opened.instance, recordedBackend('docvqa'), 'docvqa')).not.toThrow();
  });
});

describe('docvqa: rollouts', () => {
  it('on the mock: answered without looking, scored by ANLS', async () => {
    const opened = await openFixture('docvqa');
    const item = opened.prepared.data.train[0];
    if (!item) throw new Error('fixture');
    const [r] = await rollAll(opened, new MockBackend(), [item]);
    expect(r?.score).toEqual(scoreDocVqa(item.answers, r?.response ?? ''));
  });

  it('on a recorded real-model exchange (images as digests in the log): hand-checked ANLS', async () => {
    const opened = await openFixture('docvqa');
    const results = await rollAll(opened, recordedBackend('docvqa'));
    expect(results.map((r) => [r.id, r.score.hard, Number(r.score.soft.toFixed(4))])).toEqual([
      ['61001', 1, 1],
      ['61003', 1, 1],
      ['61005', 1, 1],
      ['61002', 1, 1],
      ['61004', 1, 1],
      ['61006', 0, 0.8],
    ]);
  });
});
