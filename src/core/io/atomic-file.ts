/**
 * The one crash-safe file write of the tool, sync and async with the same rules: readers (and a resumed
 * run) see the old bytes or the new, never a torn file. A temp file in the target's folder (rename is
 * atomic only within one filesystem) is written with the exact mode, fsynced, renamed over the target,
 * then the folder is fsynced so the rename itself survives a crash. The parent folder is created when
 * missing; a failed write leaves no temp file behind.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** A file the user reads or an agent loads (a new CLAUDE.md, a trainer output): the usual project mode. */
export const DEFAULT_FILE_MODE = 0o644;

/** Short and unique (pid + random), so it never grows with a long target name and never collides. */
function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Write `data` to `file` atomically with permission bits `mode` (the umask does not apply). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode: number): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = tempPathFor(file);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      chmodSync(temp, mode);
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  fsyncDirectorySync(dir);
}

/** The async twin of `writeFileAtomicSync`, same rules. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode: number): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = tempPathFor(file);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await fsyncDirectory(dir);
}

/** Best effort: some platforms (Windows) cannot open or fsync a folder. */
export function fsyncDirectorySync(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Durability of the rename is a bonus, not a requirement for correctness.
  }
}

/** Best effort, like `fsyncDirectorySync`. */
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
