/**
 * State files are private and a state folder arriving with a repository cannot redirect them (issue 15,
 * items 5 and 6). The CLI runs under umask 022, so the modes checked are the ones the tool sets, not the
 * ones the umask happens to give.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox, type CliResult, type Sandbox } from './cli-helpers.js';

/**
 * The CLI in-process under `umask 022` (the usual default, which would give 0755 folders and 0644
 * files). This file's test worker is its own process, so setting its umask touches no other test.
 */
async function runCli022(box: Sandbox, args: string[]): Promise<CliResult> {
  const before = process.umask(0o022);
  try {
    return await runCli(box, args);
  } finally {
    process.umask(before);
  }
}

const modeOf = (p: string): number => statSync(p).mode & 0o777;

/** Every path under `dir` (itself included) whose mode is not 0700 (folders) or 0600 (files). */
function notPrivate(dir: string): string[] {
  const bad: string[] = [];
  const visit = (p: string): void => {
    const st = statSync(p);
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) bad.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return bad;
}

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');

describe('file modes', () => {
  it('after run and adopt: the state home, the store (WAL, SHM) and .skillopt-sleep are 0700 / 0600', async () => {
    const box = sandbox();
    const run = await runCli022(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().accepted).toBe(true);
    const store = path.join(box.stateHome, 'store.sqlite');
    expect(modeOf(box.stateHome)).toBe(0o700);
    for (const f of [store, `${store}-wal`, `${store}-shm`])
      if (existsSync(f)) expect(modeOf(f), f).toBe(0o600);
    expect(notPrivate(box.stateHome)).toEqual([]);
    expect(notPrivate(path.join(box.project, '.skillopt-sleep'))).toEqual([]);

    const adopt = await runCli022(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const [skill = ''] = adopt.json().updated_paths as string[];
    const proposals = path.join(box.project, '.skillopt-sleep', 'proposals');
    expect(readdirSync(proposals).length).toBe(1);
    expect(existsSync(path.join(proposals, readdirSync(proposals)[0] ?? '', 'adopted.json'))).toBe(true);
    expect(notPrivate(path.join(box.project, '.skillopt-sleep'))).toEqual([]);
    expect(notPrivate(box.stateHome)).toEqual([]);
    // The live skill is a project file: its usual mode, not the state's.
    expect(modeOf(skill)).toBe(0o644);
  });

  it('an existing world-readable store and state folders are tightened by the next command', async () => {
    const box = sandbox();
    expect((await runCli022(box, ['run', '--json', '--tasks-file', TASKS])).code).toBe(0);
    const store = path.join(box.stateHome, 'store.sqlite');
    const stateDir = path.join(box.project, '.skillopt-sleep');
    // As an older version left them.
    for (const f of [store, `${store}-wal`, `${store}-shm`]) if (existsSync(f)) chmodSync(f, 0o644);
    chmodSync(box.stateHome, 0o755);
    chmodSync(stateDir, 0o755);
    writeFileSync(path.join(stateDir, 'config.json'), '{}\n', { mode: 0o644 });
    chmodSync(path.join(stateDir, 'config.json'), 0o644);
    const status = await runCli022(box, ['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(modeOf(box.stateHome)).toBe(0o700);
    for (const f of [store, `${store}-wal`, `${store}-shm`])
      if (existsSync(f)) expect(modeOf(f), f).toBe(0o600);
    expect(notPrivate(stateDir)).toEqual([]);
  });
});

describe('a loosened state home (issue 37, item 11)', () => {
  it('is tightened whole by the next command: every folder 0700, every file 0600', async () => {
    const box = sandbox();
    expect((await runCli022(box, ['run', '--json', '--tasks-file', TASKS])).code).toBe(0);
    // What other commands leave there, loosened as an older version or a umask would leave them.
    const loose: Array<[string, string | null]> = [
      ['handoff/project/requests.jsonl', '{}\n'],
      ['recordings/night.jsonl', '{}\n'],
      ['locks/x.lock', '{}'],
      ['batch/p/state.json', '{}'],
      ['installs.json', '{}'],
      ['schedules.json', '[]'],
      ['daemon-status.json', '{}'],
      ['config.json', '{}'],
    ];
    for (const [rel, text] of loose) {
      const file = path.join(box.stateHome, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      if (text !== null) writeFileSync(file, text);
      chmodSync(file, 0o644);
      for (let dir = path.dirname(file); dir !== box.stateHome; dir = path.dirname(dir))
        chmodSync(dir, 0o755);
    }
    chmodSync(box.stateHome, 0o755);
    expect(notPrivate(box.stateHome).length).toBeGreaterThan(loose.length);
    // A file of the user's own in a state home set to a shared folder is not ours to change.
    const script = path.join(box.stateHome, 'my-script.sh');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o755 });
    chmodSync(script, 0o755);

    const status = await runCli022(box, ['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(notPrivate(box.stateHome)).toEqual([`${script} 755`]);
  });
});

describe('a symlinked project state folder', () => {
  function linkedBox(): { box: Sandbox; elsewhere: string } {
    const box = sandbox();
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'sos-elsewhere-'));
    writeFileSync(path.join(elsewhere, 'config.json'), '{"lookback_hours": 1}\n');
    symlinkSync(elsewhere, path.join(box.project, '.skillopt-sleep'));
    return { box, elsewhere };
  }

  it('is refused with exit 2 and one line by every command, and nothing is written where it points', async () => {
    const { box, elsewhere } = linkedBox();
    const before = readdirSync(elsewhere);
    for (const args of [
      ['run', '--tasks-file', TASKS],
      ['dry-run', '--tasks-file', TASKS],
      ['status'],
      ['adopt'],
      ['revert'],
      ['proposals', 'list'],
      ['harvest'],
    ]) {
      const r = await runCli022(box, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^\[sleep\] error: .*\.skillopt-sleep is a symlink; refusing/);
    }
    expect(readdirSync(elsewhere)).toEqual(before);
  });

  it('a symlink below it (proposals/, config.json, a proposal file) is refused too', async () => {
    for (const below of ['proposals', 'config.json', 'proposals/20260101-000000-1/adopted.json']) {
      const box = sandbox();
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'sos-elsewhere-'));
      const link = path.join(box.project, '.skillopt-sleep', below);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(elsewhere, link);
      const r = await runCli022(box, ['run', '--tasks-file', TASKS]);
      expect(r.code, below).toBe(2);
      expect(r.stderr, below).toContain(`${below} is a symlink`);
      expect(readdirSync(elsewhere), below).toEqual([]);
    }
  });
});
