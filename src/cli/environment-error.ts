/**
 * Failures that come from the machine rather than from a bug: no permission, a read-only or full
 * disk, a store SQLite cannot write. They become one-line errors (exit 1) instead of a stack trace;
 * anything else is still reported as an internal error.
 */
import { IoError, errnoCode, errorMessage } from '../core/errors.js';

const SYSTEM: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
};

/** SQLite's primary result codes that describe the environment, by prefix of the extended code. */
const SQLITE: Array<[string, string]> = [
  [
    'SQLITE_READONLY',
    'the store cannot be written (check the modes of store.sqlite, its -wal and -shm, and their folder)',
  ],
  ['SQLITE_FULL', 'the store cannot grow: the disk is full'],
  ['SQLITE_CANTOPEN', 'the store cannot be opened (check the state home and its files)'],
  ['SQLITE_IOERR', 'the store could not be read or written (a disk or file system error)'],
  ['SQLITE_BUSY', 'the store is busy: another process holds it; try again'],
];

export function environmentError(err: unknown): IoError | null {
  const code = errnoCode(err);
  if (code === undefined) return null;
  const system = SYSTEM[code];
  if (system !== undefined) {
    const where = (err as { path?: unknown }).path;
    return new IoError(
      `${system}${typeof where === 'string' ? `: ${where}` : ''} (${code})`,
      code === 'EACCES' || code === 'EPERM' ? 'permission_denied' : 'io_failed',
    );
  }
  const sqlite = SQLITE.find(([prefix]) => code.startsWith(prefix));
  if (sqlite !== undefined)
    return new IoError(`${sqlite[1]} (${code}: ${errorMessage(err)})`, 'store_failed');
  return null;
}
