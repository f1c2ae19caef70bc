import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fakes/fake-servers.js';
import { runCliAsync } from './cli-async.js';
import { writeTasksFile } from './real-backend-fixtures.js';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

let slow: FakeServer;
beforeAll(async () => {
  slow = await startFakeServer('openai');
});
afterAll(async () => {
  await slow.close();
});

/** Resolves once the project's lock file exists (the first night holds it), failing after `ms`. */
async function lockTaken(stateHome: string, ms: number): Promise<void> {
  const dir = path.join(stateHome, 'locks');
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.lock'))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no lock appeared in ${dir} within ${ms} ms`);
}

describe('one night at a time per project', () => {
  it('two concurrent `run`s: exactly one proceeds, the other exits 75 with a clear message', async () => {
    const box = sandbox();
    const tasks = writeTasksFile(box.root);
    // The first night talks to a slow provider, so it still holds the lock when the second one starts:
    // the outcome does not depend on how fast the machine is.
    slow.reset();
    slow.holdMs = 400;
    const env = { OPENAI_API_KEY: 'test-key-not-secret' };
    const first = runCliAsync(
      box,
      ['run', '--tasks-file', tasks, '--backend', 'openai', '--base-url', slow.url],
      env,
    );
    await lockTaken(box.stateHome, 20_000);
    const second = await runCliAsync(box, ['run', '--tasks-file', tasks]);
    expect(second.code, second.stderr).toBe(75);
    expect(second.stderr).toMatch(/another night is already running for .*\(pid \d+/);
    const winner = await first;
    expect(winner.code, winner.stderr).toBe(0);
    // The lock is released afterwards: the next night runs.
    slow.holdMs = 0;
    expect((await runCli(box, ['run', '--tasks-file', tasks])).code).toBe(0);
  });
});

describe('run --auto-adopt', () => {
  const START = '<!-- SKILLOPT-SLEEP:LEARNED START -->';
  const tasks = path.join(PERSONAS, 'researcher.tasks.json');

  it('adopts the accepted proposal at once, through the checked adoption', async () => {
    const box = sandbox();
    const r = await runCli(box, ['run', '--json', '--tasks-file', tasks, '--auto-adopt']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.accepted).toBe(true);
    const adopted = out.auto_adopt as { adopted: boolean; proposal_id: string; updated_paths: string[] };
    expect(adopted).toMatchObject({ adopted: true, proposal_id: out.proposal_id });
    const live = readFileSync(adopted.updated_paths[0] ?? '', 'utf8');
    expect(live).toContain(START);
    expect(live).toContain((out.learned_rules as string[])[0]);
    // It was recorded as adopted: a second adopt is refused.
    expect((await runCli(box, ['adopt'])).code).toBe(2);
    const status = (await runCli(box, ['status', '--json'])).json();
    expect(status.latest_proposal).toMatchObject({ id: out.proposal_id, status: 'adopted' });
  });

  it('the auto_adopt config key does the same; without it nothing live changes', async () => {
    const box = sandbox();
    const plain = (await runCli(box, ['run', '--json', '--tasks-file', tasks])).json();
    expect(plain.auto_adopt).toBeUndefined();
    expect((await runCli(box, ['status', '--json'])).json().latest_proposal).toMatchObject({
      status: 'staged',
    });

    const other = sandbox();
    // The user's own config: a project's config may not turn auto_adopt on (it comes with the repository).
    mkdirSync(other.stateHome, { recursive: true });
    writeFileSync(path.join(other.stateHome, 'config.json'), '{"auto_adopt": true}');
    const r = await runCli(other, ['run', '--tasks-file', tasks]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('[sleep] auto-adopted ');
    expect(r.stdout).not.toContain('review it, then');
  });

  it('dry-run has no --auto-adopt', async () => {
    expect((await runCli(sandbox(), ['dry-run', '--auto-adopt'])).code).toBe(2);
  });
});
