/**
 * Folder and file names come from disk and from clones: one holding an escape sequence (a window
 * title, a screen clear, a clipboard write) or a line break reaches the terminal plain in every message
 * that names it, as it already does in `--json`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, sandbox, sandboxEnv } from './cli-helpers.js';
import { writeTasksFile } from './real-backend-fixtures.js';

/** OSC window title, a screen clear, a bell and a line break that would start a forged line. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\nfake';
/* eslint-disable-next-line no-control-regex */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Every line of `stderr` is free of control characters, and none starts with the forged text. */
function expectPlain(stderr: string): void {
  expect(stderr).not.toMatch(CONTROL);
  for (const line of stderr.split('\n')) expect(line.startsWith('fake')).toBe(false);
}

describe('names with escape sequences in messages for people', () => {
  it('a proposal folder of a clone, in the warning of proposals list', async () => {
    const box = sandbox();
    mkdirSync(path.join(box.project, '.skillopt-sleep', 'proposals', `20991231-000000-1${HOSTILE}`), {
      recursive: true,
    });
    const r = await runCli(box, ['proposals', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('was not staged by this machine');
    expect(r.stderr).toContain('20991231-000000-1');
    expectPlain(r.stderr);
    expect(r.stdout).not.toMatch(CONTROL);
  });

  it('a team tasks file, in the progress line that lists the files', async () => {
    const box = sandbox();
    const team = path.join(box.project, '.skillopt-team');
    mkdirSync(team);
    const tasks = writeTasksFile(box.root);
    execFileSync('cp', [tasks, path.join(team, `alice${HOSTILE}.json`)]);
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--tasks-from', team, '--progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('tasks from 1 files (alice');
    expectPlain(r.stderr);
  });

  it.skipIf(process.platform === 'win32')('a FIFO among transcripts, in the harvest warning', () => {
    const box = sandbox();
    const folder = path.join(box.home, '.claude', 'projects', '-work-acme');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'README'), 'not a transcript');
    execFileSync('mkfifo', [path.join(folder, `planted${HOSTILE}.jsonl`)]);
    // Spawned with a timeout: reading a FIFO by mistake would block the process, not fail it.
    const r = spawnSync(process.execPath, [CLI, 'harvest', '--project', box.project], {
      cwd: box.project,
      encoding: 'utf8',
      timeout: 20_000,
      killSignal: 'SIGKILL',
      env: sandboxEnv(box),
    });
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('is a FIFO, not a regular file');
    expectPlain(r.stderr);
  });
});
