/** Crash-safe file writes for run outputs: readers (and a resumed run) see the old bytes or the new, never a torn file. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

let counter = 0;

/** Write a temp file beside the target, fsync it, then rename it over the target. */
export function writeFileAtomicSync(file: string, data: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.tmp-${process.pid}-${counter++}-${path.basename(file)}`);
  try {
    const fd = openSync(temp, 'w', mode);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
