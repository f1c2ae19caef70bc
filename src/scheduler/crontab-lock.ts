/**
 * `schedule` and `unschedule` read, edit and write the crontab and the registry; two of them at once
 * could each write back a table without the other's line. They take `<state home>/locks/crontab.lock`
 * (the shared pid-lock: a lock whose process is gone is stale) and wait briefly for each other.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { locksDir } from '../config/paths.js';
import { LockHeldError } from '../core/errors.js';
import { tryPidLock } from '../core/pid-lock.js';

const WAIT_MS = 10_000;
const STEP_MS = 50;

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

export function withCrontabLock<T>(home: string, fn: () => T): T {
  const file = path.join(locksDir(home), 'crontab.lock');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // private, like the state home
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const lock = tryPidLock(file);
    if (lock.held) {
      try {
        return fn();
      } finally {
        lock.release();
      }
    }
    if (Date.now() > deadline)
      throw new LockHeldError(
        `another schedule/unschedule is editing the crontab (pid ${lock.holder?.pid ?? '?'}; lock ${file})`,
      );
    sleepSync(STEP_MS);
  }
}
