import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';
import { officeAnswer, scoreOfficeQa, sourceFiles } from './index.js';
import { relevantText } from './passages.js';
import { officeF1, scoreAnswer } from './reward.js';

describe('officeqa: loading', () => {
  it('reads officeqa_full.csv and the parsed bulletins, and honours the manifest', async () => {
    const { prepared } = await openFixture('officeqa');
    const ids = (s: 'train' | 'val' | 'test') => prepared.data[s].map((i) => i.task.id);
    expect([ids('train'), ids('val'), ids('test')]).toEqual([
      ['UID0002', 'UID0007', 'UID0014'],
      ['UID0017', 'UID0021'],
      ['UID0030'],
    ]);
    expect(prepared.data.train[0]?.answers).toEqual(['22,282']);
    expect(prepared.data.val[0]?.task.tags).toEqual(['type:hard']);
  });

  it('refuses a selected question whose bulletin is missing, naming both', async () => {
    await expect(openFixture('officeqa', ['split_dir=""', 'split_ratio=[1,1,98]'])).rejects.toThrow(
      /UID0099 needs the bulletin treasury_bulletin_1944_05\.txt/,
    );
  });

  it('reads source_files as the reference does: lines, a JSON list, commas', () => {
    expect(sourceFiles('a.txt\r\nb.txt')).toEqual(['a.txt', 'b.txt']);
    expect(sourceFiles('["a.txt", "b.txt"]')).toEqual(['a.txt', 'b.txt']);
    expect(sourceFiles('a, b')).toEqual(['a', 'b']);
    expect(sourceFiles('a.txt')).toEqual(['a.txt']);
  });
});

describe("officeqa: scoring as reward.py's score_answer", () => {
  it.each([
    // [ground truth, prediction, tolerance, score] — checked by hand against reward.py
    ['22,282', '22282', 0, 1],
    ['22,282', 'about 22,282 million dollars', 0, 1],
    ['0.19', '0.189', 0, 0],
    ['0.19', '0.189', 0.01, 1],
    ['1.72%', '1.72', 0, 1], // the percent sign is not compared
    ['543', 'reported in 2023: 543', 0, 1], // a year in the prediction is skipped
    ['543', '2023', 0, 0],
    ['2003', '2003', 0, 1], // a year-like truth is kept
    ['June 1982', 'June 1982', 0, 1],
    ['June 1982', 'May 1982', 0, 0], // numbers agree, words do not
    ['June 1982', '1982', 0, 0],
    ['-21,056', '\u221221,056', 0, 1], // a Unicode minus
    ['0', '0 dollars', 0, 1],
    ['3,912; 1,100', '1,100; 3,912', 0, 1], // every number of a list, in any order
    ['3,912; 1,100', '3,912', 0, 0],
    ['3,912 and 1,100', '1,100; 3,912', 0, 0], // the truth's word "and" is not in the prediction
    [
      'Federal Old-Age and Survivors Insurance Trust Fund',
      'the federal old-age and survivors insurance trust fund',
      0,
      1,
    ],
    // The parenthetical is removed but its spaces stay: reward.py scores this 0.
    [
      'Federal Old-Age and Survivors Insurance Trust Fund',
      'Federal Old-Age and Survivors Insurance (OASI) Trust Fund',
      0,
      0,
    ],
    ['"Treasury"', "'treasury'", 0, 1],
    ['abc', '', 0, 0],
  ] as const)('%j vs %j (tolerance %d) → %d', (truth, predicted, tolerance, score) => {
    expect(scoreAnswer(truth, predicted, tolerance)).toBe(score);
  });

  it('soft is the reference trainer F1 (money words dropped), never below hard', () => {
    expect(officeF1('$5,012 million', '5012')).toBe(1);
    expect(officeF1('May 1982', 'June 1982')).toBe(0.5);
    expect(scoreOfficeQa('5012', '<answer>$5,012 million</answer>', 0)).toMatchObject({ hard: 1, soft: 1 });
    expect(officeAnswer('x <FINAL_ANSWER> 12 </FINAL_ANSWER>')).toBe('12');
    expect(officeAnswer('no tags 12')).toBe('no tags 12');
  });

  it('shows a long bulletin as its passages sharing the rarest terms with the question, in order', () => {
    const filler = Array.from(
      { length: 300 },
      (_, i) => `Paragraph ${i} about general receipts and outlays.`,
    );
    const doc = [
      ...filler.slice(0, 150),
      'Series E bonds sold in March 1944: 1,200.',
      ...filler.slice(150),
    ].join('\n\n');
    const shown = relevantText(doc, 'Series E bonds sold in March 1944?', 2000);
    expect(shown).toContain('Series E bonds sold in March 1944: 1,200.');
    expect(shown.length).toBeLessThanOrEqual(2000);
    expect(shown).not.toContain('Paragraph 0 ');
    expect(relevantText('short', 'q', 300)).toBe('short');
  });
});

describe('officeqa: rollouts', () => {
  it('on the mock: the source bulletins are sent with the question', async () => {
    const opened = await openFixture('officeqa');
    const item = opened.prepared.data.train[2];
    if (!item) throw new Error('fixture');
    const sent = (await opened.instance.prompt?.(item, ''))?.messages[0]?.content ?? '';
    expect(sent).toMatch(/### treasury_bulletin_1942_07\.txt\n[\s\S]*### treasury_bulletin_2001_12\.txt/);
    expect(sent).toMatch(/## Question\nWhat is the sum/);
    const [r] = await rollAll(opened, new MockBackend(), [item]);
    expect(r?.score).toEqual(scoreOfficeQa('5012', r?.response ?? '', 0));
  });

  it('on a recorded real-model exchange: scored by hand-checked values', async () => {
    const opened = await openFixture('officeqa');
    const results = await rollAll(opened, recordedBackend('officeqa'));
    expect(results.map((r) => [r.id, r.score.hard, r.score.soft])).toEqual([
      ['UID0002', 1, 1],
      ['UID0007', 0, 0],
      ['UID0014', 1, 1],
      ['UID0017', 0, 0.5],
      ['UID0021', 1, 1],
      ['UID0030', 1, 1],
    ]);
  });
});
