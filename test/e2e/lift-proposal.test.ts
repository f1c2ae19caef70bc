/**
 * A proposal says how sure it is: `proposals show --json` and the HTML report carry its night's paired
 * comparison, and `eval --proposal` replays that comparison on demand from what the proposal stored.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { installTask, publishTask, writeTasksFile } from '../helpers/pnpm-tasks.js';

/** "Use pnpm instead of npm" helps installs and breaks a release, which only the held-out test holds. */
function tasksFile(box: Sandbox): string {
  return writeTasksFile(box.root, 'tasks.json', [
    installTask('t1', 'zod', 'train'),
    installTask('t2', 'dayjs', 'train'),
    installTask('v1', 'clsx', 'val'),
    installTask('v2', 'ky', 'val'),
    installTask('h1', 'zx', 'test'),
    installTask('h2', 'execa', 'test'),
    publishTask('h3', 'test'),
  ]);
}

async function stagedNight(
  box: Sandbox,
): Promise<{ id: string; dir: string; night: Record<string, unknown> }> {
  const r = await runCli(box, ['run', '--json', '--tasks-file', tasksFile(box)]);
  expect(r.code, r.stderr).toBe(0);
  const night = r.json();
  expect(night.accepted).toBe(true);
  return { id: String(night.proposal_id), dir: String(night.staging_dir), night };
}

describe('how sure a proposal is', () => {
  it('proposals show --json carries the lift of its night, and the HTML report says it', async () => {
    const box = sandbox();
    const { id, night } = await stagedNight(box);
    const show = await runCli(box, ['proposals', 'show', id, '--json']);
    expect(show.code, show.stderr).toBe(0);
    const lift = show.json().lift as Record<string, unknown>;
    expect(lift).toEqual(night.lift);
    expect(lift).toMatchObject({
      split: 'test',
      n: 3,
      samples: 1,
      improved: ['h1', 'h2'],
      regressed: ['h3'],
      p_value: 1,
      ci95: [expect.any(Number), expect.any(Number)],
    });
    expect(Object.keys(lift)).toEqual(
      expect.arrayContaining([
        'split',
        'n',
        'samples',
        'mean_diff',
        'ci95',
        'p_value',
        'improved',
        'regressed',
      ]),
    );
    const text = await runCli(box, ['proposals', 'show', id]);
    expect(text.stdout).toMatch(
      /how sure, on the held-out test .*: \+0\.\d\d \(95% interval .* 3 tasks\): could be luck/,
    );
    expect(text.stdout).toContain('Tasks that got worse');
    const page = await runCli(box, ['report', '--html']);
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/data-testid="lift" data-split="test"/);
    expect(page.stdout).toContain('3 tasks): could be luck');
    expect(page.stdout).toMatch(/data-testid="regressed-task" data-task="h3"/);
    expect(page.stdout).toContain('Run pnpm publish --access public.');
  });

  it('eval --proposal replays the stored comparison: the same numbers on the same backend', async () => {
    const box = sandbox();
    const { id, night } = await stagedNight(box);
    const again = await runCli(box, ['eval', '--proposal', id, '--json', '--samples', '4']);
    expect(again.code, again.stderr).toBe(0);
    const out = again.json();
    expect(out).toMatchObject({ proposal_id: id, backend: 'mock', notes: [] });
    const { notes, ...lift } = out.lift as Record<string, unknown>;
    const { notes: nightNotes, ...nightLift } = night.lift as Record<string, unknown>;
    expect(lift).toEqual(nightLift);
    expect(nightNotes).toEqual([]);
    expect(notes).toEqual(['the mock backend answers the same every time: 1 sample per task (4 asked)']);
    const human = await runCli(box, ['eval', '--proposal', id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`[sleep] proposal ${id}, replayed on the mock backend:`);
    expect(human.stdout).toMatch(/\[sleep\] how sure, on the held-out test .*could be luck/);
    expect(human.stdout).toContain('[sleep] worse: h3 (held-out test) 1.000 -> 0.000');
    expect(human.stdout).toContain('after:  Run pnpm publish --access public.');
  });

  it('eval --proposal says when the live skill changed, and refuses a changed comparison or mixed options', async () => {
    const box = sandbox();
    const { id, dir } = await stagedNight(box);
    expect((await runCli(box, ['adopt', id])).code).toBe(0);
    const adopted = await runCli(box, ['eval', '--proposal', id, '--json']);
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(adopted.json().notes).toEqual([expect.stringMatching(/SKILL\.md changed since the night/)]);
    const mixed = await runCli(box, ['eval', '--proposal', id, '--split', 'test']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/^\[sleep\] error: --proposal replays .*it takes no --split/);
    const stray = await runCli(box, ['eval', '--skill', 'x.md', '--samples', '2']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--samples and --project go with --proposal');
    const file = path.join(dir, 'comparison.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Release the package', 'Release it'));
    const changed = await runCli(box, ['eval', '--proposal', id]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('comparison.json is not the file it staged');
  });
});
