/**
 * The team flow without a server: two people, each with their own home and transcripts, `export
 * --tasks` what they repeat; `run --tasks-from` on both exports trains one skill holding what each
 * taught, which neither export alone produces.
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { ALICE, BOB, writeHabit } from './team-corpus.js';

// A learned rule is the user's sentence of the lesson, scoped to its kind.
const PNPM = /When the task is ".+": .*\bpnpm\b/;
const RUFF = /When the task is ".+": .*\bruff\b/;

interface Team {
  alice: Sandbox;
  bob: Sandbox;
  /** Alice's repository folder with both exports, as the team commits them. */
  shared: string;
  aliceOnly: string;
  bobOnly: string;
}

async function exportTasks(box: Sandbox, out: string): Promise<Record<string, unknown>> {
  const r = await runCli(box, ['export', '--tasks', out, '--lookback-hours', '0', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

const learned = (r: { json: () => Record<string, unknown> }): string[] => r.json().learned_rules as string[];

describe('team skills from exported tasks', () => {
  let team: Team;

  beforeAll(async () => {
    const alice = sandbox();
    const bob = sandbox();
    writeHabit(alice, ALICE);
    writeHabit(bob, BOB);
    const shared = path.join(alice.project, '.skillopt-team');
    mkdirSync(shared);
    await exportTasks(alice, path.join(shared, 'alice.json'));
    // Bob exports on his machine; the file reaches Alice's folder through git.
    const bobOut = path.join(bob.project, 'bob.json');
    await exportTasks(bob, bobOut);
    copyFileSync(bobOut, path.join(shared, 'bob.json'));
    const aliceOnly = path.join(alice.root, 'alice-only');
    const bobOnly = path.join(alice.root, 'bob-only');
    mkdirSync(aliceOnly);
    mkdirSync(bobOnly);
    copyFileSync(path.join(shared, 'alice.json'), path.join(aliceOnly, 'alice.json'));
    copyFileSync(bobOut, path.join(bobOnly, 'bob.json'));
    team = { alice, bob, shared, aliceOnly, bobOnly };
  });

  it('an export holds the recurring tasks, unreviewed, without the machine’s paths or session ids', () => {
    const file = path.join(team.shared, 'alice.json');
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text) as { format: string; reviewed: boolean; project: string; tasks: unknown[] };
    expect(data).toMatchObject({ format: 'skillopt_sleep.tasks.v1', reviewed: false, project: 'project' });
    expect(data.tasks.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('pnpm');
    expect(text).not.toContain(team.alice.root);
    expect(text).not.toMatch(/claude:deps-\d/);
    // Meant to be committed and read by the team: not a private state file.
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it('each export alone teaches only its own rule', async () => {
    const alone = await runCli(team.alice, ['dry-run', '--json', '--tasks-from', team.aliceOnly]);
    expect(alone.code, alone.stderr).toBe(0);
    expect(learned(alone).some((r) => PNPM.test(r))).toBe(true);
    expect(learned(alone).some((r) => RUFF.test(r))).toBe(false);
    const bobs = await runCli(team.alice, ['dry-run', '--json', '--tasks-from', team.bobOnly]);
    expect(bobs.code, bobs.stderr).toBe(0);
    expect(learned(bobs).some((r) => RUFF.test(r))).toBe(true);
    expect(learned(bobs).some((r) => PNPM.test(r))).toBe(false);
  });

  it('the union of both exports stages one skill with both rules', async () => {
    const r = await runCli(team.alice, ['run', '--json', '--tasks-from', team.shared]);
    expect(r.code, r.stderr).toBe(0);
    const night = r.json();
    expect(night.accepted).toBe(true);
    expect(night.tasks_from).toEqual([team.shared]);
    expect(night.n_sessions).toBe(0); // nothing of Alice's own transcripts was harvested
    const manifest = JSON.parse(
      readFileSync(path.join(String(night.staging_dir), 'manifest.json'), 'utf8'),
    ) as { targets: Array<{ kind: string; proposedFile: string }> };
    expect(manifest.targets.map((t) => t.kind)).toEqual(['skill']);
    const skill = readFileSync(
      path.join(String(night.staging_dir), manifest.targets[0]?.proposedFile ?? ''),
      'utf8',
    );
    expect(skill).toMatch(PNPM);
    expect(skill).toMatch(RUFF);
    // The same two files through two folders: each task counted once.
    const twice = await runCli(team.alice, [
      'dry-run',
      '--json',
      '--tasks-from',
      team.aliceOnly,
      '--tasks-from',
      team.bobOnly,
      '--tasks-from',
      team.shared,
    ]);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.json().n_tasks).toBe(night.n_tasks);
    expect(String((twice.json().notes as string[])[0])).toMatch(/counted once/);
  });

  it('a real backend refuses unreviewed exports, naming each file', async () => {
    const r = await runCli(team.alice, ['dry-run', '--backend', 'openai', '--tasks-from', team.shared]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path.join(team.shared, 'alice.json'));
    expect(r.stderr).toContain(path.join(team.shared, 'bob.json'));
    expect(r.stderr).toContain('"reviewed": true');
    const reviewed = path.join(team.alice.root, 'reviewed');
    mkdirSync(reviewed);
    for (const name of ['alice.json', 'bob.json']) {
      const data = JSON.parse(readFileSync(path.join(team.shared, name), 'utf8')) as Record<string, unknown>;
      writeFileSync(path.join(reviewed, name), JSON.stringify({ ...data, reviewed: true }));
    }
    const plan = await runCli(team.alice, ['dry-run', '--backend', 'openai', '--tasks-from', reviewed]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('nothing was sent');
  });
});

describe('export and --tasks-from refuse bad input', () => {
  it('export: a missing folder, a folder, a file that is not a tasks file, nothing recurring', async () => {
    const box = sandbox();
    const missing = await runCli(box, ['export', '--tasks', path.join(box.root, 'nope', 'a.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the folder .*nope does not exist/);
    const folder = await runCli(box, ['export', '--tasks', box.root]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is a folder');
    const other = path.join(box.root, 'package.json');
    writeFileSync(other, '{"name": "web"}\n');
    const refused = await runCli(box, ['export', '--tasks', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to overwrite it');
    expect(readFileSync(other, 'utf8')).toBe('{"name": "web"}\n');
    const empty = await runCli(box, ['export', '--tasks', path.join(box.root, 'out.json')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to export');
    for (const r of [missing, folder, refused, empty]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--tasks-from: a missing folder, an empty one, combined with --tasks-file or --demo', async () => {
    const box = sandbox();
    const missing = await runCli(box, ['dry-run', '--tasks-from', path.join(box.root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such folder');
    const emptyDir = path.join(box.root, 'team');
    mkdirSync(emptyDir);
    writeFileSync(path.join(emptyDir, 'notes.txt'), 'not a tasks file\n');
    const empty = await runCli(box, ['dry-run', '--tasks-from', emptyDir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no tasks file (*.json) in this folder');
    writeFileSync(path.join(emptyDir, 'a.json'), '{"format": "skillopt_sleep.tasks.v1", "tasks": []}');
    const none = await runCli(box, ['dry-run', '--tasks-from', emptyDir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('hold no task');
    const both = await runCli(box, ['run', '--tasks-from', emptyDir, '--tasks-file', 'x.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--tasks-file and --tasks-from cannot be combined');
    const demo = await runCli(box, ['dry-run', '--tasks-from', emptyDir, '--demo']);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain('--tasks-from and --demo cannot be combined');
  });
});
