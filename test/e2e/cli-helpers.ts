/** Spawns the built CLI with a temporary HOME and state home: no test touches the real ones. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLI = path.resolve(import.meta.dirname, '../../dist/src/cli/main.js');
/** The project's own persona tasks files (see test/fixtures/personas/README.md). */
export const PERSONAS = path.resolve(import.meta.dirname, '../fixtures/personas');

export interface Sandbox {
  root: string;
  home: string;
  stateHome: string;
  project: string;
}

export function sandbox(): Sandbox {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-e2e-'));
  const s = {
    root,
    home: path.join(root, 'home'),
    stateHome: path.join(root, 'state'),
    project: path.join(root, 'project'),
  };
  for (const dir of [s.home, s.project]) spawnSync('mkdir', ['-p', dir]);
  return s;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: () => Record<string, unknown>;
}

export function runCli(box: Sandbox, args: string[], extraEnv: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: box.project,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: box.home,
      SKILLOPT_SLEEP_HOME: box.stateHome,
      NO_COLOR: '1',
      TZ: 'UTC',
      ...extraEnv,
    },
  });
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout) as Record<string, unknown>,
  };
}
