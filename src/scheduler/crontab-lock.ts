/**
 * `schedule` and `unschedule` read, edit and write the crontab and the registry; two of them at once
 * could each write back a table without the other's line. They take `<state home>/locks/crontab.lock`
 * (pid inside; a lock whose process is gone is stale) and wait briefly for each other.
 */
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { locksDir } from '../config/paths.js';
import { LockHeldError } from '../core/errors.js';

const WAIT_MS = 10_000;
const STEP_MS = 50;

function holderPid(file: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

export function withCrontabLock<T>(home: string, fn: () => T): T {
  const file = path.join(locksDir(home), 'crontab.lock');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // private, like the state home
  const deadline = Date.now() + WAIT_MS;
  // Created whole (temp file + link), so a lock file without a readable pid is corrupt, not half-written.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid }), { mode: 0o600 });
  try {
    for (;;) {
      try {
        linkSync(tmp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = holderPid(file);
        if (pid === null || !alive(pid)) {
          try {
            unlinkSync(file); // stale: its process is gone
          } catch {
            // Someone else cleaned it up.
          }
          continue;
        }
        if (Date.now() > deadline)
          throw new LockHeldError(
            `another schedule/unschedule is editing the crontab (pid ${pid}; lock ${file})`,
          );
        sleepSync(STEP_MS);
      }
    }
  } finally {
    unlinkSync(tmp);
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
}
