/**
 * Issue 37, item 12: a store or project the machine will not let us use is one line and a non-zero
 * exit, never a stack trace; what is ours to repair (SQLite's -wal/-shm left read-only) is repaired;
 * a store is never silently replaced. Permissions mean nothing to root, so where they matter the
 * built CLI runs as an unprivileged user (`nobody`, through setpriv) on a sandbox it owns.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, PERSONAS, runCli, sandbox, sandboxEnv, type CliResult, type Sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const setpriv = spawnSync('setpriv', ['--version']).status === 0;
const canDropRoot = !isRoot || setpriv;

/** The built CLI as a user permissions apply to (this one, or `nobody` when the tests run as root). */
function runUnprivileged(box: Sandbox, args: string[]): CliResult {
  const command = isRoot
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, CLI, ...args]
    : [process.execPath, CLI, ...args];
  const r = spawnSync(command[0] ?? '', command.slice(1), {
    cwd: box.project,
    encoding: 'utf8',
    env: sandboxEnv(box),
  });
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout) as Record<string, unknown>,
  };
}

function ownedSandbox(): Sandbox {
  const box = sandbox();
  if (isRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, box.root]);
  return box;
}

const store = (box: Sandbox): string => path.join(box.stateHome, 'store.sqlite');
const modeOf = (p: string): number => statSync(p).mode & 0o777;

function expectOneLineError(r: CliResult, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe.skipIf(!canDropRoot)('a store or project we may not use', () => {
  it('a read-only store is one line, SQLite leaves no read-only -shm, and chmod 600 is enough', () => {
    const box = ownedSandbox();
    expect(runUnprivileged(box, ['status']).code).toBe(0);
    chmodSync(store(box), 0o400);
    for (const args of [['run', '--tasks-file', TASKS], ['harvest'], ['status']]) {
      expectOneLineError(runUnprivileged(box, args), /store .*store\.sqlite is read-only .*chmod 600/);
    }
    chmodSync(store(box), 0o600);
    const run = runUnprivileged(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
  });

  it('repairs a -wal and -shm that SQLite left read-only beside a store made writable again', () => {
    const box = ownedSandbox();
    expect(runUnprivileged(box, ['status']).code).toBe(0);
    for (const side of ['-wal', '-shm']) {
      writeFileSync(store(box) + side, side === '-shm' ? Buffer.alloc(32768) : '');
      if (isRoot) spawnSync('chown', [`${NOBODY}:${NOBODY}`, store(box) + side]);
      chmodSync(store(box) + side, 0o400);
    }
    const run = runUnprivileged(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    for (const side of ['-wal', '-shm']) {
      const file = store(box) + side;
      if (existsSync(file)) expect(modeOf(file), side).toBe(0o600);
    }
  });

  it('an unreadable project folder is one line for every command', () => {
    const box = ownedSandbox();
    const closed = path.join(box.root, 'closed');
    mkdirSync(closed);
    if (isRoot) spawnSync('chown', [`${NOBODY}:${NOBODY}`, closed]);
    chmodSync(closed, 0o000);
    for (const args of [['status'], ['run', '--tasks-file', TASKS], ['adopt'], ['proposals', 'list']]) {
      expectOneLineError(
        runUnprivileged(box, [...args, '--project', closed]),
        /project folder .*closed cannot be read \(EACCES\)/,
      );
    }
  });
});

describe('an empty store', () => {
  it('is refused in one line and left as it is, never taken as a new store', async () => {
    const box = sandbox();
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(store(box), '');
    for (const args of [['status'], ['run', '--tasks-file', TASKS]]) {
      const r = await runCli(box, args);
      expectOneLineError(r, /store .*store\.sqlite is empty \(0 bytes\): the history it held is gone/);
    }
    expect(readFileSync(store(box)).length).toBe(0);
    const json = await runCli(box, ['status', '--json']);
    expect(json.json()).toMatchObject({ ok: false, error: 'store_empty' });
  });

  it('a new state home gets a whole store (never a 0-byte one), once', async () => {
    const box = sandbox();
    const r = await runCli(box, ['status']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(store(box)).size).toBeGreaterThan(0);
    expect(modeOf(store(box))).toBe(0o600);
  });
});
