/**
 * The CLI's process I/O as one value: environment, working folder, output streams, stdin. The bin
 * (`main.ts`) fills it from `process`; tests run the CLI in-process with their own (`run.ts`).
 *
 * `runCli` scopes it with AsyncLocalStorage rather than threading it through every command: each run
 * sees its own value across awaits, so two in-process runs never mix, and nothing is left behind.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/paths.js';

export interface OutStream {
  write(text: string): void;
  isTTY: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
}

export interface CliIo {
  env: Env;
  cwd: string;
  stdout: OutStream;
  stderr: OutStream;
  /** Everything on stdin (read once, when a command asks), and whether stdin is a terminal. */
  readStdin(): string;
  stdinIsTTY: boolean;
}

/** The real process's I/O (what the bin runs with). */
export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: {
      write: (t) => void process.stdout.write(t),
      get isTTY() {
        return process.stdout.isTTY === true;
      },
      get columns() {
        return process.stdout.columns;
      },
    },
    stderr: {
      write: (t) => void process.stderr.write(t),
      get isTTY() {
        return process.stderr.isTTY === true;
      },
      get columns() {
        return process.stderr.columns;
      },
    },
    readStdin: () => readFileSync(0, 'utf8'),
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
  };
}

const current = new AsyncLocalStorage<CliIo>();

/** Runs `fn` (and everything it awaits) with `io` as the CLI's I/O. */
export function withCliIo<T>(io: CliIo, fn: () => T): T {
  return current.run(io, fn);
}

/** The I/O of the CLI run in progress; outside a run (a unit test of a helper), the process's. */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo();
}

/** A path the user typed, resolved against the CLI's working folder (not the test runner's). */
export function cliPath(p: string): string {
  return path.resolve(cliIo().cwd, p);
}
