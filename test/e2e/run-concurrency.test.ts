import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDir, claudeSessionLines } from './claude-transcript.js';
import { CLI, PERSONAS, runCli, sandbox, type Sandbox } from './cli-helpers.js';

function runAsync(box: Sandbox, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: box.project,
      env: { PATH: process.env.PATH ?? '', HOME: box.home, SKILLOPT_SLEEP_HOME: box.stateHome, TZ: 'UTC' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe('one night at a time per project', () => {
  it('two concurrent `run`s: exactly one proceeds, the other exits 75 with a clear message', async () => {
    const box = sandbox();
    // Enough transcripts that a night's harvest holds the lock for a while.
    const dir = claudeProjectDir(box.home, box.project);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 400; i++) {
      const id = `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`;
      const lines = Array.from({ length: 40 }, (_, k) =>
        claudeSessionLines(
          box.project,
          id,
          `task ${k} of session ${i}: add the zod package`,
          'Run npm i zod.',
        ),
      ).flat();
      writeFileSync(path.join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
    }
    const results = await Promise.all([runAsync(box, ['run']), runAsync(box, ['run'])]);
    const codes = results.map((r) => r.code).sort((a, b) => a - b);
    expect(codes, results.map((r) => r.stderr).join('\n')).toEqual([0, 75]);
    const loser = results.find((r) => r.code === 75);
    expect(loser?.stderr).toMatch(/another night is already running for .*\(pid \d+/);
    // The lock is released afterwards: the next night runs.
    expect(runCli(box, ['run']).code).toBe(0);
  });
});

describe('run --auto-adopt', () => {
  const START = '<!-- SKILLOPT-SLEEP:LEARNED START -->';
  const tasks = path.join(PERSONAS, 'researcher.tasks.json');

  it('adopts the accepted proposal at once, through the checked adoption', () => {
    const box = sandbox();
    const r = runCli(box, ['run', '--json', '--tasks-file', tasks, '--auto-adopt']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.accepted).toBe(true);
    const adopted = out.auto_adopt as { adopted: boolean; proposal_id: string; updated_paths: string[] };
    expect(adopted).toMatchObject({ adopted: true, proposal_id: out.proposal_id });
    const live = readFileSync(adopted.updated_paths[0] ?? '', 'utf8');
    expect(live).toContain(START);
    expect(live).toContain((out.learned_rules as string[])[0]);
    // It was recorded as adopted: a second adopt is refused.
    expect(runCli(box, ['adopt']).code).toBe(2);
    const status = runCli(box, ['status', '--json']).json();
    expect(status.latest_proposal).toMatchObject({ id: out.proposal_id, status: 'adopted' });
  });

  it('the auto_adopt config key does the same; without it nothing live changes', () => {
    const box = sandbox();
    const plain = runCli(box, ['run', '--json', '--tasks-file', tasks]).json();
    expect(plain.auto_adopt).toBeUndefined();
    expect(runCli(box, ['status', '--json']).json().latest_proposal).toMatchObject({ status: 'staged' });

    const other = sandbox();
    mkdirSync(path.join(other.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(path.join(other.project, '.skillopt-sleep', 'config.json'), '{"auto_adopt": true}');
    const r = runCli(other, ['run', '--tasks-file', tasks]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('[sleep] auto-adopted ');
    expect(r.stdout).not.toContain('review it, then');
  });

  it('dry-run has no --auto-adopt', () => {
    expect(runCli(sandbox(), ['dry-run', '--auto-adopt']).code).toBe(2);
  });
});
