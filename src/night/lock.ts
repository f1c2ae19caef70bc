/** One lock per project so two nights never overlap. Stale locks (holder gone) are taken over. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LockHeldError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import { tryPidLock } from '../core/pid-lock.js';
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
