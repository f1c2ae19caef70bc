// One vocabulary and one count of what a night mined, in progress, summary, report and JSON.
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

interface TaskEntry {
  occurrences: number;
}

describe('task counts', () => {
  it('progress, summary and JSON agree on instances, tasks and recurring tasks', async () => {
    const box = sandbox();
    const human = await runCli(box, ['dry-run', '--demo', '--progress']);
    expect(human.code, human.stderr).toBe(0);
    // The demo's three uncorrected one-offs have no judge: mined, listed, never replayed.
    expect(human.stderr).toContain('[sleep] mine: 3 tasks no judge can score are not replayed\n');
    expect(human.stderr).toContain('[sleep] mine: 13 task instances of 6 tasks (3 recurring)\n');
    expect(human.stdout).toContain('16 sessions -> 13 task instances of 6 tasks (3 recurring); train');

    const out = (await runCli(box, ['dry-run', '--demo', '--json'])).json();
    const recurring = out.recurring_tasks as TaskEntry[];
    const oneOff = out.one_off_tasks as TaskEntry[];
    expect(out.schema_version).toBe(2);
    expect(recurring).toHaveLength(Number(out.n_recurring));
    expect(recurring.every((t) => t.occurrences >= 2)).toBe(true);
    expect(oneOff.every((t) => t.occurrences === 1)).toBe(true);
    expect(recurring.length + oneOff.length).toBe(Number(out.n_clusters));
    expect([...recurring, ...oneOff].reduce((n, t) => n + t.occurrences, 0)).toBe(
      Number(out.n_tasks) + Number(out.n_unjudged),
    );
    expect(out.n_unjudged).toBe(3);
  });

  it('harvest lists recurring and one-off tasks apart and counts them the same way', async () => {
    const box = sandbox();
    const human = await runCli(box, ['harvest', '--demo']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('16 sessions -> 16 task instances of 6 tasks (3 recurring)\n');
    const out = (await runCli(box, ['harvest', '--demo', '--json'])).json();
    expect((out.recurring_tasks as TaskEntry[]).map((t) => t.occurrences)).toEqual([5, 4, 4]);
    expect((out.one_off_tasks as TaskEntry[]).map((t) => t.occurrences)).toEqual([1, 1, 1]);
  });
});
