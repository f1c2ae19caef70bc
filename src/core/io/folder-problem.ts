/**
 * Whether a folder can be used (or created) before anything writes into it, so a path under a file
 * or an unwritable parent is one clear sentence instead of an ENOTDIR deep inside a command.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../errors.js';

/** Why `dir` cannot be used as a folder, or null when it is one or can be created. */
export function folderProblem(dir: string): string | null {
  let at = path.resolve(dir);
  for (;;) {
    let st: Stats | undefined;
    try {
      st = existing(at);
    } catch (err) {
      return `${at} cannot be read (${errnoCode(err) ?? 'error'})`;
    }
    if (st) {
      if (!st.isDirectory()) return `${at} is a file, not a folder`;
      try {
        accessSync(at, constants.W_OK | constants.X_OK);
      } catch {
        return `${at} is not writable`;
      }
      return null;
    }
    const parent = path.dirname(at);
    if (parent === at) return null;
    at = parent;
  }
}

/** The path's stats, or undefined when it does not exist (also when a parent is a file: ENOTDIR). */
function existing(at: string): Stats | undefined {
  try {
    return statSync(at);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** True when `p` is an existing folder (false for a file, a missing path or one under a file). */
export function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
