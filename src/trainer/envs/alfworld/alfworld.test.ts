import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';
import { FIXTURE_GAMES } from './fixtures.js';
import { startFakeAlfworld, type FakeServer } from './test-helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeAlfworld(FIXTURE_GAMES);
});
afterAll(() => server.close());

const open = (extra: string[] = []) =>
  openFixture('alfworld', [`env_options.server_url=${server.url}`, ...extra]);

describe('alfworld on its fixture (the scripted server)', () => {
  it('loads the reference manifest layout without data_dir', async () => {
    const { prepared } = await open();
    expect(prepared.data.items.map((i) => [i.task.id, i.task.split])).toEqual([
      ['train:0000', 'train'],
      ['train:0001', 'train'],
      ['val:0000', 'val'],
      ['test:0000', 'test'],
    ]);
    expect(prepared.data.train[0]?.task.intent).toBe(
      'ALFWorld game pick_and_place_simple-Apple-None-Fridge-1',
    );
    expect(prepared.data.train[0]?.task.tags).toEqual(['type:pick_and_place_simple']);
  });

  it('refuses a server that is not on the loopback interface', async () => {
    await expect(openFixture('alfworld', ['env_options.server_url=http://10.0.0.5:3917'])).rejects.toThrow(
      /must be http on 127\.0\.0\.1/,
    );
  });

  it('rolls out on the mock: no action tag, so it looks around until the step limit and loses', async () => {
    const opened = await open(['env_options.max_steps=3']);
    const [r] = await rollAll(opened, new MockBackend(), opened.prepared.data.train.slice(0, 1));
    expect(r?.score).toEqual({
      hard: 0,
      soft: 0,
      rationale: 'not won within the step limit (3); 3 reply(ies) without an <action> tag',
    });
  });

  it('replays a recorded real-model episode: won, in the recorded number of steps', async () => {
    const opened = await open();
    const items = [opened.prepared.data.train[0]!, opened.prepared.data.val[0]!];
    const [apple, mug] = await rollAll(opened, recordedBackend('alfworld'), items);
    expect(apple?.score).toEqual({ hard: 1, soft: 1, rationale: 'won in 5 step(s)' });
    expect(mug?.score).toEqual({ hard: 1, soft: 1, rationale: 'won in 6 step(s)' });
    expect(mug?.response).toContain(
      '> go to table 1\nYou arrive at table 1. On the table 1, you see a bread 1.',
    );
  });
});
