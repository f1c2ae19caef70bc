/**
 * A scheduled night, run by the daemon as a child `run` process: the same command a cron line runs,
 * with the same recorded options and environment, output appended to the project's nights.log. A child
 * keeps the night's store writes out of the daemon's own connection, and takes the project lock itself
 * (so a night the user started by hand makes it exit 75 instead of running twice).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { nightLogFile, projectLogsDir, type Env } from '../config/paths.js';
import { nightArgv } from '../scheduler/cron-line.js';
import type { ScheduleEntry } from '../scheduler/registry.js';

export interface NightChild {
  child: ChildProcess;
  /** Resolves with the exit code (signals map to 128 + n, like a shell). */
  exited: Promise<number>;
}

export function spawnNight(entry: ScheduleEntry, env: Env, nodePath: string, cliPath: string): NightChild {
  mkdirSync(projectLogsDir(entry.project), { recursive: true });
  const log = openSync(nightLogFile(entry.project), 'a');
  const [cmd = nodePath, ...args] = nightArgv({
    project: entry.project,
    nodePath,
    cliPath,
    args: entry.args,
    env: entry.env,
  });
  let child: ChildProcess;
  try {
    child = spawn(cmd, args, { env: { ...env, ...entry.env }, stdio: ['ignore', log, log] });
  } finally {
    closeSync(log); // the child has its own copy
  }
  const exited = new Promise<number>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
  return { child, exited };
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 0;
}
