/**
 * `train --config` on the spreadsheetbench and alfworld fixtures with the mock, in-process: a short
 * training runs to its summary and `eval` scores the run; ALFWorld talks to the scripted server the test
 * starts on 127.0.0.1, and every episode of the run reaches it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_GAMES } from '../../src/trainer/envs/alfworld/fixtures.js';
import { startFakeAlfworld, type FakeServer } from '../../src/trainer/envs/alfworld/test-helpers.js';
import { runCli, sandbox } from './cli-helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/envs');

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeAlfworld(FIXTURE_GAMES);
});
afterAll(() => server.close());

describe('train --config on the spreadsheetbench and alfworld fixtures (mock)', () => {
  it('spreadsheetbench: trains, writes its outputs, and eval scores the test split', async () => {
    const box = sandbox();
    const config = path.join(FIXTURES, 'spreadsheetbench', 'fixture.yaml');
    const args = ['--config', config, '--backend', 'mock', '--set', 'env_options.max_rounds=1'];
    const r = await runCli(box, ['train', ...args, '--out', 'run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(s.steps).toBe(1);
    expect(s.initial_val).toBe(0); // the mock writes no code
    expect(s.test).not.toBeNull();
    for (const f of ['best_skill.md', 'final_skill.md', 'history.jsonl', 'summary.json'])
      expect(existsSync(path.join(box.project, 'run', f))).toBe(true);
    const e = await runCli(box, ['eval', ...args, '--out', 'run', '--split', 'test', '--json']);
    expect(e.code, e.stderr).toBe(0);
    expect((e.json() as Record<string, { n: number }>).best?.n).toBe(1);
  });

  it('alfworld: trains against the server, and a missing server is a one-line error', async () => {
    const box = sandbox();
    const config = path.join(FIXTURES, 'alfworld', 'fixture.yaml');
    const args = ['--config', config, '--backend', 'mock', '--set', 'env_options.max_steps=2'];
    const before = server.requests.filter((q) => q.route === '/reset').length;
    const r = await runCli(box, [
      'train',
      ...args,
      '--set',
      `env_options.server_url=${server.url}`,
      '--out',
      'run',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().steps).toBe(1);
    const games = server.requests
      .filter((q) => q.route === '/reset')
      .slice(before)
      .map((q) => q.body.gamefile);
    expect(new Set(games).size).toBe(4); // train, val and test games were all played
    const down = await runCli(box, [
      'train',
      ...args,
      '--set',
      'env_options.server_url=http://127.0.0.1:9',
      '--out',
      'run2',
    ]);
    expect(down.code).not.toBe(0);
    expect(down.stderr).toMatch(
      /^\[sleep\] error: the ALFWorld server at http:\/\/127\.0\.0\.1:9 did not answer \/reset/m,
    );
  });
});
