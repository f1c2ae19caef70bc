// An empty night says why and which flag changes it; a dry-run's last line says what a run would do.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { claudeProjectDir, claudeSessionLines } from './claude-transcript.js';

const DAY = 86_400_000;

/** Three sessions of one task, all ten days old: outside the default 72-hour lookback. */
function oldSessions(box: Sandbox): void {
  const dir = claudeProjectDir(box.home, box.project);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 3; i++) {
    const lines = claudeSessionLines(box.project, `old-${i}`, `add the zod package ${i}`, 'npm install zod');
    const aged = lines.map((l) => {
      const record = JSON.parse(l) as { timestamp: string };
      return JSON.stringify({
        ...record,
        timestamp: new Date(Date.parse(record.timestamp) - 10 * DAY).toISOString(),
      });
    });
    writeFileSync(path.join(dir, `old-${i}.jsonl`), aged.join('\n') + '\n');
  }
}

describe('empty nights and the end of a dry-run', () => {
  it('names the lookback window and --lookback-hours 0, and says a run would stage nothing', async () => {
    const box = sandbox();
    oldSessions(box);
    const r = await runCli(box, ['dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 sessions -> 0 task instances;');
    expect(r.stdout).toMatch(
      /note: no task had a session in the last 72 hours .*--lookback-hours 0 replays all history/,
    );
    expect(r.stdout).toContain('would stage nothing (there is no task).');
    expect(r.stdout).not.toContain('stages this as a proposal');
    const harvest = await runCli(box, ['harvest']);
    expect(harvest.stdout).toMatch(/no task had a session in the last 72 hours/);
    // All history: three tasks mined, none with a lesson to judge it, so nothing is replayed.
    const all = (await runCli(box, ['dry-run', '--lookback-hours', '0', '--json'])).json();
    expect(all).toMatchObject({ n_tasks: 0, n_unjudged: 3 });
    expect(all.notes).toContainEqual(expect.stringMatching(/^no lesson judges any of the 3 tasks mined/));
  });

  it('after --demo the last line names run --demo', async () => {
    const box = sandbox();
    const r = await runCli(box, ['dry-run', '--demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      '[sleep] dry-run: nothing was written into the project; `skillopt-sleep run --demo` stages this as a proposal.',
    );
  });

  it('a tied edit in a dry-run says what a run would keep', async () => {
    const box = sandbox();
    const tasks = path.join(PERSONAS, 'researcher.tasks.json');
    const r = await runCli(box, ['dry-run', '--tasks-file', tasks, '--edit-budget', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[sleep\] pending \(tied; a run would keep it to re-test next night\): /);
    expect(r.stdout).not.toContain('(tied; re-tested next night)');
    expect(r.stdout).toContain(
      'would stage nothing (the gate accepted no edit), and keeps the 1 tied edit to re-test next night.',
    );
  });
});
