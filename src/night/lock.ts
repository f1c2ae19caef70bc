/** One lock per project so two nights never overlap. Stale locks (dead pid) are taken over. */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LockHeldError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import { locksDir } from '../config/paths.js';

export interface ProjectLock {
  path: string;
  release(): void;
}

function holderAlive(file: string): { alive: boolean; pid: number | null } {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown };
    const pid = typeof info.pid === 'number' ? info.pid : null;
    if (pid === null) return { alive: false, pid };
    process.kill(pid, 0);
    return { alive: true, pid };
  } catch (err) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return { alive: (err as NodeJS.ErrnoException).code === 'EPERM', pid: null };
  }
}

export function lockProject(home: string, project: string, now: number): ProjectLock {
  const dir = locksDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${sha256Hex(project).slice(0, 24)}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, project, startedAt: now }));
      closeSync(fd);
      return {
        path: file,
        release: () => {
          try {
            unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = holderAlive(file);
      if (holder.alive) {
        throw new LockHeldError(
          `another night is already running for ${project} (pid ${holder.pid ?? '?'}; lock ${file})`,
        );
      }
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new LockHeldError(`could not take the lock ${file}`);
}
