/** `harvest` with FIFOs planted at transcript paths of every source: finishes, warns naming each, exit 0. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, sandbox, type Sandbox } from './cli-helpers.js';

let box: Sandbox | undefined;
afterEach(() => {
  if (box) rmSync(box.root, { recursive: true, force: true });
  box = undefined;
});

describe.skipIf(process.platform === 'win32')('harvest with planted FIFOs', () => {
  it('skips each with a warning naming it and exits 0', { timeout: 30_000 }, () => {
    box = sandbox();
    const storage = path.join(box.home, 'vscode-storage');
    const fifos = [
      path.join(box.home, '.claude/projects/-work-acme/planted.jsonl'),
      path.join(
        box.home,
        '.codex/sessions/2025/11/23/rollout-2025-11-23T10-00-00-019aae00-0000-7000-8000-0000000000aa.jsonl',
      ),
      path.join(box.home, '.copilot/session-store.db'),
      path.join(box.home, '.copilot/session-state/s1/events.jsonl'),
      path.join(storage, 'ws1/chatSessions/planted.json'),
    ];
    for (const fifo of fifos) {
      mkdirSync(path.dirname(fifo), { recursive: true });
      execFileSync('mkfifo', [fifo]);
    }
    // A timeout so that a regression fails (the child is killed) instead of hanging the test run.
    const r = spawnSync(process.execPath, [CLI, 'harvest', '--project', box.project], {
      cwd: box.project,
      encoding: 'utf8',
      timeout: 20_000,
      killSignal: 'SIGKILL',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: box.home,
        SKILLOPT_SLEEP_HOME: box.stateHome,
        SKILLOPT_SLEEP_VSCODE_WORKSPACE_STORAGE: storage,
        NO_COLOR: '1',
        TZ: 'UTC',
      },
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    for (const fifo of fifos) expect(r.stderr).toContain(`${fifo} is a FIFO, not a regular file`);
  });
});
