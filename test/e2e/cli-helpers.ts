/**
 * Runs the CLI with a temporary HOME and state home, so no test touches the real ones: in-process
 * (`runCli`, the fast default) or as the built bin in its own process (`spawnCli`, for what only a
 * separate process shows: exit codes of the bin, signals, locks between processes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { runCli as runCliInProcess } from '../../src/cli/run.js';

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

/** The environment every run gets: the sandbox's homes, no colour, UTC, and the PATH to find tools. */
export function sandboxEnv(box: Sandbox, extraEnv: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: box.home,
    SKILLOPT_SLEEP_HOME: box.stateHome,
    NO_COLOR: '1',
    TZ: 'UTC',
    ...extraEnv,
  };
}

function result(code: number, stdout: string, stderr: string): CliResult {
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> };
}

export interface RunOptions {
  /** Text on stdin (read by `handoff answer`); without it stdin is empty. */
  input?: string;
  /** The working folder (default: the sandbox project). */
  cwd?: string;
}

/**
 * Runs the CLI in this process: the sandbox env is the injected env (process.env is never touched),
 * the sandbox project the working folder, and stdout/stderr are captured. Not a terminal.
 */
export async function runCli(
  box: Sandbox,
  args: string[],
  extraEnv: Record<string, string> = {},
  opts: RunOptions = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: sandboxEnv(box, extraEnv),
    cwd: opts.cwd ?? box.project,
    stdout: { write: (t) => void (stdout += t), isTTY: false },
    stderr: { write: (t) => void (stderr += t), isTTY: false },
    readStdin: () => opts.input ?? '',
    stdinIsTTY: false,
  };
  const code = await runCliInProcess(args, io);
  return result(code, stdout, stderr);
}

/** Spawns the built CLI (dist) in its own process, with the same sandbox env. */
export function spawnCli(
  box: Sandbox,
  args: string[],
  extraEnv: Record<string, string> = {},
  opts: RunOptions = {},
): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? box.project,
    encoding: 'utf8',
    env: sandboxEnv(box, extraEnv),
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  });
  return result(r.status ?? -1, r.stdout, r.stderr);
}

/** The sandbox store's bytes as they are on disk, its WAL and shared memory included (latin1). */
export function storeBytes(box: Sandbox): string {
  const store = path.join(box.stateHome, 'store.sqlite');
  return ['', '-wal', '-shm']
    .map((suffix) => store + suffix)
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}
