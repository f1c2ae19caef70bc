import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';
import { chosenLabel, shuffleChoices, type Choice } from './choices.js';
import { scoreChoice } from './index.js';

const four: Choice[] = ['zero', 'one', 'two', 'three'].map((text, i) => ({ label: 'ABCD'[i] ?? '', text }));

describe('livemathematicianbench: loading', () => {
  it('reads both monthly layouts, ids <month>:<no> (month from the file when absent), and the manifest', async () => {
    const { prepared } = await openFixture('livemathematicianbench');
    const ids = (s: 'train' | 'val' | 'test') => prepared.data[s].map((i) => i.task.id);
    expect([ids('train'), ids('val'), ids('test')]).toEqual([
      ['202601:1', '202601:2', '202602:7'],
      ['202601:3', '202602:8'],
      ['202602:9'],
    ]);
    // The intent shows the question and the shuffled choices; the reference is the correct label.
    const cauchy = prepared.data.train[2];
    const label = cauchy?.answers[0] ?? '';
    expect(cauchy?.task.intent).toContain(`${label}. It is a Cauchy sequence`);
    expect(cauchy?.task.tags).toEqual(['type:analysis']);
  });

  it('shuffles choices per item with the seed: fixed for a seed, the correct choice followed', async () => {
    const a = await openFixture('livemathematicianbench');
    const b = await openFixture('livemathematicianbench');
    const c = await openFixture('livemathematicianbench', ['seed=7']);
    const intents = (o: typeof a) => o.prepared.data.items.map((i) => i.task.intent);
    expect(intents(a)).toEqual(intents(b));
    expect(intents(c)).not.toEqual(intents(a));
    const plain = await openFixture('livemathematicianbench', ['env_options.shuffle_choices=false']);
    expect(plain.prepared.data.items.map((i) => i.answers[0])).toEqual(['A', 'B', 'C', 'A', 'B', 'C']);
    const s = shuffleChoices(four, 'C', 'x', 1);
    expect(s.choices.find((ch) => ch.label === s.correct)?.text).toBe('two');
    expect(s.choices.map((ch) => ch.label)).toEqual(['A', 'B', 'C', 'D']);
  });
});

describe('livemathematicianbench: reading the chosen label', () => {
  it.each([
    ['<answer>B</answer>', 'B'],
    ['<answer> c. </answer>', 'C'],
    ['<answer>two</answer>', 'C'], // a choice's whole text
    ['reasoning\nD) because three', 'D'], // starts with a label
    ['<answer>(B)</answer>', 'B'],
    ['Final answer: **C**', 'C'],
    ['The answer is A or B', ''], // two labels: none read
    ['<answer>E</answer>', ''],
    ['no label at all', ''],
  ])('%j → %j', (reply, label) => {
    expect(chosenLabel(reply, four)).toBe(label);
  });

  it('scores 1 only for the correct label, hard and soft alike', () => {
    expect(scoreChoice('<answer>C</answer>', four, 'C')).toMatchObject({ hard: 1, soft: 1 });
    expect(scoreChoice('<answer>A</answer>', four, 'C')).toMatchObject({ hard: 0, soft: 0 });
    expect(scoreChoice('?', four, 'C').rationale).toMatch(/no readable label but the answer is C/);
  });
});

describe('livemathematicianbench: rollouts', () => {
  it('on the mock: the question and lettered choices are sent, the reply scored', async () => {
    const opened = await openFixture('livemathematicianbench');
    const item = opened.prepared.data.val[0];
    if (!item) throw new Error('fixture');
    const sent = await opened.instance.prompt?.(item, 'Check the equality cases.');
    expect(sent?.system).toContain('## Skill\nCheck the equality cases.');
    expect(sent?.messages[0]?.content).toMatch(/^## Question\n[\s\S]*\n\n## Choices\nA\. /);
    const [r] = await rollAll(opened, new MockBackend(), [item]);
    expect(r?.score.hard).toBe(0);
  });

  it('on a recorded real-model exchange: labels read from tags, bold and brackets', async () => {
    const opened = await openFixture('livemathematicianbench');
    const results = await rollAll(opened, recordedBackend('livemathematicianbench'));
    expect(results.map((r) => [r.id, r.score.hard])).toEqual([
      ['202601:1', 1],
      ['202601:2', 1],
      ['202602:7', 1],
      ['202601:3', 0],
      ['202602:8', 1],
      ['202602:9', 1],
    ]);
  });
});
