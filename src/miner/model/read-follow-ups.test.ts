import { describe, expect, it } from 'vitest';
import { BudgetExhaustedError } from '../../core/errors.js';
import { zeroUsage } from '../../core/usage.js';
import { memorySessionLabels } from '../../store/session-labels-repo.js';
import type { Episode } from '../episodes.js';
import { mineSessions } from '../mine.js';
import { edit, run, session } from '../test-helpers.js';
import {
  FOLLOW_UPS_PER_REQUEST,
  READINGS_PREFIX,
  parseStoredReadings,
  readFollowUps,
  readingChunks,
  readingsOf,
  type ReadingChunk,
} from './read-follow-ups.js';
import type { JsonAsker } from './label-sessions.js';

const ep = (prompt: string, text = 'ok'): Episode => ({ turnIndex: 0, prompt, text, actions: [] });

/** A model that calls the first follow-up of each request a correction and the rest nudges. */
function scriptedModel(sent: string[], fail?: (n: number) => Error | null): JsonAsker {
  return {
    askJson: (_role, template, vars) => {
      sent.push(`${template}:${vars.follow_ups ?? ''}`);
      const error = fail?.(sent.length);
      if (error) return Promise.reject(error);
      const n = (vars.follow_ups?.match(/^## \d+$/gm) ?? []).length;
      const follow_ups = Array.from({ length: n }, (_, i) =>
        i === 0
          ? { n: 1, class: 'correction', rule: 'Commit messages stay short.', general: true }
          : { n: i + 1, class: 'nudge' },
      );
      return Promise.resolve({ value: { follow_ups } as never, usage: zeroUsage() });
    },
  };
}

describe('readingChunks', () => {
  it('reads a long session in several requests, so late follow-ups are reached', () => {
    const episodes = [ep('request'), ...Array.from({ length: 23 }, (_, i) => ep(`follow-up ${i}`))];
    const chunks = readingChunks(episodes, 0);
    expect(chunks.map((c) => c.turns.length)).toEqual([FOLLOW_UPS_PER_REQUEST, FOLLOW_UPS_PER_REQUEST, 3]);
    expect(chunks[2]?.turns.at(-1)).toBe(23);
    expect(chunks.every((c) => c.hash.startsWith(READINGS_PREFIX))).toBe(true);
    // A lone request is read too (item 0: it may state a standing preference).
    expect(readingChunks([ep('only a request')], 0).map((c) => [c.turns, c.request])).toEqual([[[], 0]]);
    expect(chunks.map((c) => c.request)).toEqual([0, null, null]);
  });
});

describe('readFollowUps', () => {
  const sessions = [
    {
      sessionKey: 'claude:a',
      episodes: [ep('write the commit'), ep('shorter please'), ep('go on')],
      request: 0,
    },
    { sessionKey: 'claude:b', episodes: [ep('write the commit'), ep('too long again')], request: 0 },
  ];

  it('reads each session once: stored readings are reused and cost nothing', async () => {
    const store = memorySessionLabels();
    const sent: string[] = [];
    const first = await readFollowUps({
      sessions,
      backend: scriptedModel(sent),
      store,
      maxSessions: 10,
      stopsOn: () => false,
    });
    expect(first.stats).toMatchObject({ sessions: 2, sent: 2, reused: 0 });
    expect(first.readings.get('claude:a')).toEqual([
      { turn: 1, class: 'correction', rule: 'Commit messages stay short.', general: true },
      { turn: 2, class: 'nudge', rule: '', general: false },
    ]);
    const again = await readFollowUps({
      sessions,
      backend: scriptedModel(sent),
      store,
      maxSessions: 10,
      stopsOn: () => false,
    });
    expect(again.stats).toMatchObject({ sessions: 0, sent: 0, reused: 2 });
    expect(sent).toHaveLength(2);
  });

  it('sends at most the cap, and a spend limit stops the pass keeping what was read', async () => {
    const capped = await readFollowUps({
      sessions,
      backend: scriptedModel([]),
      store: memorySessionLabels(),
      maxSessions: 1,
      stopsOn: () => false,
    });
    expect(capped.stats).toMatchObject({ sessions: 1, skipped: 1 });
    const store = memorySessionLabels();
    const stopped = await readFollowUps({
      sessions,
      backend: scriptedModel([], (n) =>
        n === 2 ? new BudgetExhaustedError('budget spent', 'max_calls') : null,
      ),
      store,
      maxSessions: 10,
      stopsOn: (err) => err instanceof BudgetExhaustedError,
    });
    expect(stopped.stats).toMatchObject({ sent: 1, stopped: true, skipped: 1 });
    expect(store.size()).toBe(1);
  });

  it('drops a reply item with an unknown class or number, and a rule that is not general', () => {
    const chunk: ReadingChunk = {
      hash: 'fu:x',
      turns: [3, 4],
      request: null,
      vars: { request: '', follow_ups: '' },
    };
    const read = readingsOf(chunk, {
      follow_ups: [
        { n: 1, class: 'Correction', rule: 'Only change what was asked.', general: false },
        { n: 2, class: 'complaint' },
        { n: 7, class: 'nudge' },
        { n: 1, class: 'nudge' },
      ],
    });
    expect(read).toEqual([
      { turn: 3, class: 'correction', rule: 'Only change what was asked.', general: false },
    ]);
    expect(parseStoredReadings('not json')).toBeUndefined();
    expect(
      parseStoredReadings(
        JSON.stringify({ readings: [{ turn: 3, class: 'nonsense', rule: '', general: false }] }),
      ),
    ).toEqual([]);
  });
});

describe('mining with a model reading', () => {
  const corrected = (key: string) =>
    session(
      [
        {
          prompt: 'commit the header fix',
          reply: 'Committed.',
          actions: [run('git commit -m "fix(web): header"')],
        },
        { prompt: 'make em', reply: 'Done.', actions: [edit('/work/app/a.ts', 'x', 'y')] },
      ],
      { key, minute: 1 },
    );

  it('takes the model reading over the structure: a nudge it read as a correction is a lesson, in its words', () => {
    const offline = mineSessions([corrected('claude:m')], { project: '/work/app', maxTasks: 10 });
    expect(offline.lessons).toEqual([]);
    const episodes = [
      {
        turnIndex: 0,
        prompt: 'commit the header fix',
        text: 'Committed.',
        actions: [run('git commit -m "fix(web): header"')],
      },
      { turnIndex: 2, prompt: 'make em', text: 'Done.', actions: [edit('/work/app/a.ts', 'x', 'y')] },
    ];
    const [chunk] = readingChunks(episodes, 0);
    const stored = new Map([
      [
        'claude:m',
        new Map([
          [
            chunk?.hash ?? '',
            JSON.stringify({
              readings: [
                { turn: 1, class: 'correction', rule: 'Do not ask for names; derive them.', general: true },
              ],
            }),
          ],
        ]),
      ],
    ]);
    const read = mineSessions([corrected('claude:m')], {
      project: '/work/app',
      maxTasks: 10,
      readings: stored,
    });
    expect(read.lessons).toHaveLength(1);
    expect(read.lessons[0]).toMatchObject({
      rule: 'Do not ask for names; derive them.',
      origin: 'model',
      criterion: 'Do not ask for names; derive them.',
      evidence: [{ session: 'claude:m', turn: 1, sentence: 'make em', signals: ['model'] }],
    });
  });
});
