/**
 * Issue 37, item 13: a night that learns nothing new proposes what the pending proposal already
 * proposes; it is not staged again (a daemon on a short schedule made 104 identical folders), and the
 * night says so. A night that proposes something else still stages, superseding the pending one.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');

it('an unchanged night stages nothing new and names the pending proposal', async () => {
  const box = sandbox();
  const proposals = path.join(box.project, '.skillopt-sleep', 'proposals');
  const first = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
  expect(first.code, first.stderr).toBe(0);
  const id = String(first.json().proposal_id);
  expect(id).not.toBe('');

  for (let night = 2; night <= 3; night++) {
    const again = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(again.code, again.stderr).toBe(0);
    const report = again.json();
    expect(report.staging_dir).toBe('');
    expect(report.proposal_id).toBe(id);
    expect(report.notes).toContain(
      `nothing new was staged: the pending proposal ${id} already proposes exactly these files`,
    );
  }
  expect(readdirSync(proposals)).toEqual([id]);
  const text = await runCli(box, ['run', '--tasks-file', TASKS]);
  expect(text.stdout).toContain(`[sleep] note: nothing new was staged: the pending proposal ${id}`);
  expect(text.stdout).not.toContain('[sleep] staged:');
  const listed = (await runCli(box, ['proposals', 'list', '--json'])).json() as {
    proposals: Array<{ id: string; status: string }>;
  };
  expect(listed.proposals).toEqual([expect.objectContaining({ id, status: 'staged' })]);

  // The live skill written by hand meanwhile: the next proposal differs, so it is staged.
  const skill = String((first.json() as { target_skill_path: string }).target_skill_path);
  mkdirSync(path.dirname(skill), { recursive: true });
  writeFileSync(skill, '# My skill\n\nA rule of my own.\n');
  const changed = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
  expect(changed.code, changed.stderr).toBe(0);
  expect(changed.json().staging_dir).not.toBe('');
  expect(readdirSync(proposals)).toHaveLength(2);
});
