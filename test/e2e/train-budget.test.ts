// `train` on a real backend takes its base URL and hard budget from the same config layers as a night;
// a spent budget stops it cleanly (exit 0, "stopped": "budget"), and a larger budget resumes the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fakes/fake-servers.js';
import { runCliAsync } from './cli-async.js';
import { sandbox } from './cli-helpers.js';

let openai: FakeServer;
beforeAll(async () => {
  openai = await startFakeServer('openai');
});
afterAll(async () => {
  await openai.close();
});

it('stops at max_calls from config.json, then resumes with a larger budget', async () => {
  const box = sandbox();
  const config = (maxCalls: number): void => {
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(
      path.join(box.stateHome, 'config.json'),
      JSON.stringify({ base_url: openai.url, max_calls: maxCalls, max_cost_usd: null }),
    );
  };
  const out = path.join(box.root, 'run');
  const args = ['train', '--demo', '--backend', 'openai', '--out', out, '--json'];
  const env = { OPENAI_API_KEY: 'test-key-not-secret' };

  config(3);
  const stopped = await runCliAsync(box, args, env);
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(stopped.json()).toMatchObject({ stopped: 'budget', limit: 'max_calls', out });
  expect(openai.bodies).toHaveLength(3);

  config(2000);
  const resumed = await runCliAsync(box, args, env);
  expect(resumed.code, resumed.stderr).toBe(0);
  const summary = resumed.json();
  expect(summary.stopped).toBeUndefined();
  expect(summary.steps).toBeGreaterThan(0);
  expect(typeof summary.best_val).toBe('number');
});
