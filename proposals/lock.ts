/**
 * One adopt or revert per proposal at a time: an exclusive-create lock file naming the process.
 * A lock whose process is gone (killed mid-adoption) is stale; recovery removes it.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AdoptRefusedError, IoError, errorMessage } from '../src/core/errors.js';
import { PRIVATE_FILE_MODE, errorCode, isMissingPathError } from './atomic-write.js';

export const ADOPT_LOCK_FILE = '.adopt.lock';

export function lockPathOf(dir: string): string {
  return path.join(dir, ADOPT_LOCK_FILE);
}

export async function acquireProposalLock(dir: string, id: string, now: number): Promise<string> {
  const lockPath = lockPathOf(dir);
  let handle;
  try {
    handle = await open(lockPath, 'wx', PRIVATE_FILE_MODE);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') {
      throw new AdoptRefusedError(
        `another adopt or revert of proposal ${id} is in progress (lock ${lockPath}); if none is running, delete that file and retry`,
        'adopt_in_progress',
      );
    }
    throw new IoError(`cannot create ${lockPath}: ${errorMessage(err)}`);
  }
  try {
    await handle.writeFile(`${JSON.stringify({ pid: process.pid, startedAt: now })}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return lockPath;
}

export async function releaseProposalLock(lockPath: string): Promise<void> {
  await unlink(lockPath).catch(() => undefined);
}

export type LockState = 'none' | 'held' | 'stale';

/**
 * 'held' when the lock names a live process (or cannot be read: we do not guess), 'stale' when its
 * process is gone.
 */
export async function lockState(dir: string): Promise<LockState> {
  let text: string;
  try {
    text = await readFile(lockPathOf(dir), 'utf8');
  } catch (err) {
    return isMissingPathError(err) ? 'none' : 'held';
  }
  const pid = parsePid(text);
  if (pid === null) return 'held';
  return processAlive(pid) ? 'held' : 'stale';
}

function parsePid(text: string): number | null {
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data === 'object' && data !== null && 'pid' in data) {
      const pid = data.pid;
      if (typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0) return pid;
    }
  } catch {
    // An unreadable lock is treated as held.
  }
  return null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(err) === 'EPERM';
  }
}
