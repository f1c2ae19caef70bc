/**
 * One adopt or revert per proposal at a time: the shared pid-lock (`src/core/pid-lock.ts`) naming the
 * process. A lock whose process is gone (killed mid-adoption) is stale; recovery finishes or rolls back
 * its transaction, then removes it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AdoptRefusedError, IoError, errorMessage } from '../src/core/errors.js';
import { processAlive } from '../src/core/process-identity.js';
import { readLockRecord, removeStaleLock, tryPidLock } from '../src/core/pid-lock.js';

export const ADOPT_LOCK_FILE = '.adopt.lock';

/** The release of each lock this process holds, by path. */
const heldLocks = new Map<string, () => void>();

export function lockPathOf(dir: string): string {
  return path.join(dir, ADOPT_LOCK_FILE);
}

export async function acquireProposalLock(dir: string, id: string, now: number): Promise<string> {
  await Promise.resolve();
  const lockPath = lockPathOf(dir);
  let lock;
  try {
    // Never taken over here: a stale lock means an interrupted transaction that recovery must see first.
    lock = tryPidLock(lockPath, { startedAt: now }, { takeOverStale: false });
  } catch (err) {
    throw new IoError(`cannot create ${lockPath}: ${errorMessage(err)}`);
  }
  if (!lock.held) {
    throw new AdoptRefusedError(
      `another adopt or revert of proposal ${id} is in progress (lock ${lockPath}); if none is running, delete that file and retry`,
      'adopt_in_progress',
    );
  }
  heldLocks.set(lockPath, lock.release);
  return lockPath;
}

/** Release a lock this process took (a no-op for any other). */
export async function releaseProposalLock(lockPath: string): Promise<void> {
  await Promise.resolve();
  heldLocks.get(lockPath)?.();
  heldLocks.delete(lockPath);
}

/** Remove a stale lock once its transaction was recovered (proved stale again, never a live one). */
export function removeStaleProposalLock(lockPath: string): void {
  removeStaleLock(lockPath);
}

export type LockState = 'none' | 'held' | 'stale';

/**
 * 'held' when the lock names a live process (or cannot be read: we do not guess), 'stale' when its
 * process is gone.
 */
export async function lockState(dir: string): Promise<LockState> {
  await Promise.resolve();
  const file = lockPathOf(dir);
  if (!existsSync(file)) return 'none';
  const record = readLockRecord(file);
  if (record === null) return existsSync(file) ? 'held' : 'none';
  return processAlive(record) ? 'held' : 'stale';
}
