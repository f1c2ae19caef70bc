/**
 * Small filesystem primitives for the proposal store: crash-safe writes and tolerant reads.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** A live file the adoption creates (a new CLAUDE.md): the usual mode of a project file. */
export const DEFAULT_FILE_MODE = 0o644;
/** Proposal folders hold transcript quotes and backups: private to the user (`writeFileAtomic`'s default). */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Write `data` to `filePath` so readers see either the old or the new bytes, never a torn file:
 * write a temp file in the same directory (rename is only atomic within one filesystem), fsync,
 * rename over the target, then fsync the directory so the rename itself survives a crash.
 */
export async function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  mode: number = PRIVATE_FILE_MODE,
): Promise<void> {
  const dir = path.dirname(filePath);
  // A short name that does not grow with the target's basename, so long names still fit.
  const tempPath = path.join(dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const handle = await open(tempPath, 'wx', mode);
  try {
    try {
      // Set the mode explicitly: open() applies the umask.
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, filePath);
  } catch (err) {
    await unlink(tempPath).catch(() => undefined);
    throw err;
  }
  await fsyncDirectory(dir);
}

/** Best effort: some platforms (Windows) cannot open or fsync a directory. */
export async function fsyncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the rename is a bonus, not a requirement for correctness.
  }
}

/** The file's bytes, or null when it (or a parent directory) does not exist. */
export async function readFileIfExists(filePath: string): Promise<Buffer | null> {
  try {
    return await readFile(filePath);
  } catch (err) {
    if (isMissingPathError(err)) return null;
    throw err;
  }
}

/** ENOENT, or ENOTDIR (a parent is a regular file): either way the path does not exist. */
export function isMissingPathError(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err != null && 'code' in err && typeof err.code === 'string') {
    return err.code;
  }
  return undefined;
}
