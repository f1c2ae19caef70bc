/**
 * Opening transcript files that someone else may have planted: only regular files are read. A FIFO (or a
 * device, a socket) at a transcript path would block a plain `open` or `read` forever, so files are opened
 * non-blocking and checked with `fstat` before any read; a path that is not a regular file is refused with
 * an IoError naming it, which the harvest reports as a skipped file.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { IoError } from '../errors.js';

/**
 * The largest transcript read whole and parsed as one JSON document (legacy Codex `.json`, VS Code chat
 * `.json`): parsing takes several times the file's size in memory (a 300 MB legacy Codex file took 4.6 GB),
 * so a larger one is skipped with a warning. The same bound as one JSONL line (jsonl.ts).
 */
export const MAX_WHOLE_JSON_BYTES = 64 * 1024 * 1024;

/** O_NONBLOCK where the platform has it (not on Windows, which has no FIFOs at file paths). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What kind of file `stats` describes, for the refusal message. */
function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

function notRegular(filePath: string, stats: Stats): IoError {
  const kind = fileKind(stats);
  return new IoError(
    `${filePath} is ${kind === 'not a regular file' ? kind : `${kind}, not a regular file`}`,
  );
}

/**
 * A read-only descriptor of `filePath` with its stats, refused unless it is a regular file. The caller
 * closes it. Opening never blocks, even on a FIFO without a writer.
 */
export function openRegularFile(filePath: string): { fd: number; stats: Stats } {
  const fd = openSync(filePath, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(filePath, stats);
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * Throws unless `filePath` (followed if a symlink) is a regular file; ENOENT and the like pass through.
 * For readers that open by path themselves (SQLite), called right before they open it.
 */
export function assertRegularFile(filePath: string): void {
  const stats = statSync(filePath);
  if (!stats.isFile()) throw notRegular(filePath, stats);
}

/**
 * The whole content of a regular file, refused (IoError naming the limit) when it is larger than
 * `maxBytes`, so one oversize file cannot take the process's memory.
 */
export function readRegularFile(filePath: string, maxBytes = Number.POSITIVE_INFINITY): Buffer {
  const { fd, stats } = openRegularFile(filePath);
  try {
    if (stats.size > maxBytes) {
      throw new IoError(
        `${filePath} is ${stats.size} bytes, over the ${maxBytes}-byte limit for a whole-file read`,
      );
    }
    const buffer = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break; // Shrank while we read: keep what is there.
      filled += n;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
