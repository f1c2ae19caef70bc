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
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isMissingPathError } from '../errors.js';
import { processAlive } from '../process-identity.js';

/** A file the user reads or an agent loads (a new CLAUDE.md, a trainer output): the usual project mode. */
export const DEFAULT_FILE_MODE = 0o644;

/** Short and unique (pid + random), so it never grows with a long target name and never collides. */
function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** The names `tempPathFor` gives, with the writer's pid. */
const TEMP_NAME = /^\.tmp-(\d+)-[0-9a-f]{12}$/;

/**
 * A kill between a temp file's creation and its rename leaves it behind (a partial skill of megabytes,
 * beside the live one). Remove from `dir` the temp files named by `tempPathFor` whose writer is gone;
 * those of a live process (it may be writing) and every other file stay. Returns the names removed.
 */
export async function removeDeadWritersTemps(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissingPathError(err)) return [];
    throw err;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const pid = TEMP_NAME.exec(entry.name)?.[1];
    if (pid === undefined || !entry.isFile() || processAlive({ pid: Number(pid), start: '' })) continue;
    await rm(path.join(dir, entry.name), { force: true });
    removed.push(entry.name);
  }
  return removed;
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
