/**
 * One daemon per state home: `<state home>/daemon.lock` holds the pid. A lock whose process is gone is
 * stale and taken over; a live one makes a second daemon exit 75.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { daemonLockFile } from '../config/paths.js';
import { LockHeldError } from '../core/errors.js';

export interface DaemonHolder {
  pid: number;
  started_at: number;
}

function readHolder(file: string): DaemonHolder | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<DaemonHolder>;
    if (typeof info.pid !== 'number' || !Number.isInteger(info.pid) || info.pid <= 0) return null;
    return { pid: info.pid, started_at: typeof info.started_at === 'number' ? info.started_at : 0 };
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running daemon of this state home, or null (no lock, unreadable lock or dead pid). */
export function runningDaemon(home: string): DaemonHolder | null {
  const holder = readHolder(daemonLockFile(home));
  return holder && alive(holder.pid) ? holder : null;
}

export function acquireDaemonLock(home: string, now: number): { release(): void } {
  const file = daemonLockFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // the state home
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, started_at: now }));
      closeSync(fd);
      return {
        release: () => {
          // Only remove our own lock (a successor may have taken over a lock we thought stale).
          if (readHolder(file)?.pid !== process.pid) return;
          try {
            unlinkSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(file);
      if (holder && alive(holder.pid))
        throw new LockHeldError(`the daemon is already running (pid ${holder.pid}; lock ${file})`);
      try {
        unlinkSync(file); // stale or unreadable: its process is gone
      } catch {
        // Someone else removed it first; try again.
      }
    }
  }
  throw new LockHeldError(`could not take the daemon lock ${file}`);
}
