/**
 * One daemon per state home: `<state home>/daemon.lock` holds the pid. A lock whose process is gone is
 * stale and taken over; a live one makes a second daemon exit 75.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { daemonLockFile } from '../config/paths.js';
import { LockHeldError } from '../core/errors.js';
import { liveHolder, tryPidLock } from '../core/pid-lock.js';

export interface DaemonHolder {
  pid: number;
  started_at: number;
}

/** The running daemon of this state home, or null (no lock, unreadable lock or dead process). */
export function runningDaemon(home: string): DaemonHolder | null {
  const holder = liveHolder(daemonLockFile(home));
  if (!holder) return null;
  const startedAt = holder.extra.started_at;
  return { pid: holder.pid, started_at: typeof startedAt === 'number' ? startedAt : 0 };
}

export function acquireDaemonLock(home: string, now: number): { release(): void } {
  const file = daemonLockFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // the state home
  const lock = tryPidLock(file, { started_at: now });
  if (!lock.held)
    throw new LockHeldError(`the daemon is already running (pid ${lock.holder?.pid ?? '?'}; lock ${file})`);
  return { release: lock.release };
}
