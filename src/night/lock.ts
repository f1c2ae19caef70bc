/** One lock per project so two nights never overlap. Stale locks (holder gone) are taken over. */
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { LockHeldError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import { liveHolder, tryPidLock } from '../core/pid-lock.js';
import { locksDir } from '../config/paths.js';

export interface ProjectLock {
  path: string;
  release(): void;
}

export function lockProject(home: string, project: string, now: number): ProjectLock {
  const dir = locksDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${sha256Hex(project).slice(0, 24)}.lock`);
  const lock = tryPidLock(file, { project, startedAt: now });
  if (!lock.held) {
    throw new LockHeldError(
      `another night is already running for ${project} (pid ${lock.holder?.pid ?? '?'}; lock ${file})`,
    );
  }
  return { path: file, release: lock.release };
}

/**
 * The projects whose night is running now (a live holder of a project lock). Commands that delete
 * what a night may be reading from or writing to (`forget`) refuse while there is one.
 */
export function runningNights(home: string): Array<{ project: string; pid: number }> {
  let names: string[];
  try {
    names = readdirSync(locksDir(home));
  } catch {
    return [];
  }
  const running: Array<{ project: string; pid: number }> = [];
  for (const name of names) {
    if (!/^[0-9a-f]{24}\.lock$/.test(name)) continue;
    const holder = liveHolder(path.join(locksDir(home), name));
    const project = holder?.extra['project'];
    if (holder && typeof project === 'string') running.push({ project, pid: holder.pid });
  }
  return running;
}
