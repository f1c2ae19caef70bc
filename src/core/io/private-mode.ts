/**
 * State files hold whole conversations: folders are 0700 and files 0600 whatever the umask, and a
 * state folder made by an older version (0755 / 0644) is tightened when it is opened.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../errors.js';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Make `dir` (and missing parents) 0700, or tighten it when it exists; returns its path. */
export function makePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  keepPrivate(dir);
  return dir;
}

/**
 * Drop the group and other bits of `p` (0700 for a folder, 0600 for a file) when any is set. A missing
 * path or a symlink is left alone (symlinks are refused where they matter, never followed here).
 */
export function keepPrivate(p: string, st: Stats | undefined = lstatOrUndefined(p)): void {
  if (st === undefined || st.isSymbolicLink() || (st.mode & 0o077) === 0) return;
  try {
    chmodSync(p, st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
  } catch (err) {
    // Another user's file (a shared folder): not ours to change, and no reason to stop the command.
    if (errnoCode(err) !== 'EPERM') throw err;
  }
}

/** `lstat`, or undefined when nothing is there. */
export function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** How many entries `keepTreePrivate` visits at most (a state home holds hundreds, not millions). */
const MAX_TREE_ENTRIES = 20_000;

/**
 * `keepPrivate` on each of `roots` and, for a folder, everything below it: a state home an older
 * version (or a loose umask) left 0755/0644 is tightened whole, not only the files the command opens.
 * Symlinks are neither changed nor followed.
 */
export function keepTreePrivate(roots: readonly string[]): void {
  const stack = [...roots];
  for (let seen = 0; stack.length > 0 && seen < MAX_TREE_ENTRIES; seen++) {
    const p = stack.pop() as string;
    const st = lstatOrUndefined(p);
    if (st === undefined || st.isSymbolicLink()) continue;
    keepPrivate(p, st);
    if (st.isDirectory()) for (const name of namesIn(p)) stack.push(path.join(p, name));
  }
}

/** A folder's entries; none when it cannot be read (a folder the user closed is theirs to keep so). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
