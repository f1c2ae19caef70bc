/**
 * Tasks files that arrive with a clone (a team's `.skillopt-team/`, a tasks file, a project config)
 * written to hurt: a pattern that backtracks for hours, one only a backtracking engine can run, JSON
 * nested 100,000 deep, a megabyte-long check. Each is run in bounded time or refused with one line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, sandbox, sandboxEnv, type Sandbox } from './cli-helpers.js';

const TEAM = '.skillopt-team';

interface FileTask {
  id: string;
  check: Record<string, unknown>;
  answer?: string;
}

/** A reviewed tasks file of rule tasks, two on train and one held out, each with one check. */
function tasksFile(tasks: readonly FileTask[]): string {
  return JSON.stringify({
    format: 'skillopt_sleep.tasks.v1',
    reviewed: true,
    tasks: tasks.map((t, i) => ({
      id: t.id,
      intent: `answer in the house style ${i}`,
      reference_kind: 'rule',
      attempted_solution: t.answer ?? 'an answer',
      judge: { kind: 'rule', checks: [t.check] },
      split: i === 2 ? 'val' : 'train',
    })),
  });
}

const threeOf = (check: Record<string, unknown>, answer?: string): FileTask[] =>
  ['t1', 't2', 't3'].map((id) => ({ id, check, ...(answer === undefined ? {} : { answer }) }));

/** The team folder of a cloned repository, holding one teammate's file. */
function teamFolder(box: Sandbox, text: string): string {
  const dir = path.join(box.project, TEAM);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'teammate.json'), text);
  return dir;
}

const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('a regex check from a team tasks file', () => {
  it('that backtracks catastrophically is matched in linear time: the night ends', () => {
    const box = sandbox();
    // A backtracking engine needs about a minute at 30 `a`s, doubling with each one more.
    teamFolder(box, tasksFile(threeOf({ op: 'regex', arg: '^(a+)+$' }, `${'a'.repeat(34)}!`)));
    const started = Date.now();
    const r = spawnSync(process.execPath, [CLI, 'dry-run', '--backend', 'mock', '--tasks-from', TEAM], {
      cwd: box.project,
      env: sandboxEnv(box),
      encoding: 'utf8',
      // Generous under load (the night takes about a second), yet far below what backtracking takes.
      timeout: 60_000,
    });
    expect(r.signal, `killed after ${Date.now() - started} ms`).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('validation');
  }, 90_000);

  it.each([
    ['(a+)\\1', 'a backreference \\1'],
    ['x(?=y)', 'a lookahead (?=…)'],
  ])('that only backtracking can run (%s) is refused in one line naming it', async (pattern, named) => {
    const box = sandbox();
    teamFolder(box, tasksFile(threeOf({ op: 'regex', arg: pattern })));
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--tasks-from', TEAM]);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('teammate.json: task #0 (id "t1")');
    expect(lines[0]).toContain(`regex ${JSON.stringify(pattern)} is refused: it uses ${named}`);
  });
});

describe('a tasks file or project config built to exhaust the reader', () => {
  it('a tasks file nested 100,000 deep is exit 2 in one line, not a stack overflow', async () => {
    const box = sandbox();
    const file = path.join(box.project, 'tasks.json');
    writeFileSync(
      file,
      `{"format": "skillopt_sleep.tasks.v1", "tasks": [{"id": "d", "intent": "x", "tags": ${nested(100_000)}}]}`,
    );
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--tasks-file', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `[sleep] error: ${file}: nests arrays or objects more than 64 levels deep, which no file of skillopt-sleep does`,
    ]);
  });

  it('a team file with a 1 MB tool_called name is exit 2 in one line', async () => {
    const box = sandbox();
    teamFolder(box, tasksFile(threeOf({ op: 'tool_called', arg: 'x'.repeat(1 << 20) })));
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--tasks-from', TEAM]);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('check #0 tool_called arg is 1048576 characters long, at most 4096');
    expect(lines[0]!.length).toBeLessThan(1000);
  });

  it('a project config nested 100,000 deep is exit 2 naming the file', async () => {
    const box = sandbox();
    const config = path.join(box.project, '.skillopt-sleep', 'config.json');
    mkdirSync(path.dirname(config), { recursive: true });
    writeFileSync(config, `{"preferences": ${nested(100_000)}}`);
    const r = await runCli(box, ['dry-run', '--backend', 'mock']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `[sleep] error: ${config}: nests arrays or objects more than 64 levels deep, which no file of skillopt-sleep does`,
    ]);
  });
});
