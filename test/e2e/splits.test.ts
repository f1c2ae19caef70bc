// --val-fraction 0 holds nothing out, and a night without held-out tasks says so in its text.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

describe('splits', () => {
  it('--val-fraction 0 puts no task in val, and the night says its holdout leaked', async () => {
    const box = sandbox();
    const harvest = await runCli(box, ['harvest', '--demo', '--val-fraction', '0', '--json']);
    expect(harvest.code, harvest.stderr).toBe(0);
    const splits = (harvest.json().tasks as Array<{ split: string }>).map((t) => t.split);
    expect(splits).not.toContain('val');

    const night = await runCli(box, ['dry-run', '--demo', '--val-fraction', '0', '--json']);
    expect(night.json()).toMatchObject({ holdout_leaked: true, accepted: false });
    const human = await runCli(box, ['dry-run', '--demo', '--val-fraction', '0']);
    expect(human.stdout).toContain('(the same tasks: none was set aside for validation)');
    expect(human.stdout).toContain('[sleep] holdout leaked: no task was set aside for validation');
  });

  it('a single task shows that val reuses it instead of a plain "train 1, val 1"', async () => {
    const box = sandbox();
    const file = JSON.parse(readFileSync(path.join(PERSONAS, 'programmer.tasks.json'), 'utf8')) as {
      tasks: unknown[];
    };
    const one = path.join(box.root, 'one.tasks.json');
    writeFileSync(one, JSON.stringify({ ...file, tasks: file.tasks.slice(0, 1) }));
    const r = await runCli(box, ['dry-run', '--tasks-file', one]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('train 1, val 1 (the same tasks: none was set aside for validation)');
    expect(r.stdout).toContain('[sleep] holdout leaked:');
  });
});
