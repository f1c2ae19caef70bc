/**
 * Where an install may write: inside the folder the agent's config lives under (the home, the agent's
 * own home or the project). A symlinked file or folder is followed only when it resolves inside that
 * folder; one pointing elsewhere (a repository's `.vscode -> ~/.ssh`) is refused before anything is
 * written. Only regular files are read.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError, errnoCode } from '../core/errors.js';

// eslint-disable-next-line no-control-regex -- control characters must never reach a config file
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Refuses a string that would put a control character into a written file. */
export function plainText(what: string, value: string): string {
  if (CONTROL.test(value)) throw new InputError(`${what} contains a control character: refusing to write it`);
  return value;
}

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The real path to write for `file` (a symlink inside `root` is followed), or an InputError when the
 * file, or any folder on the way, resolves outside `root` or is not what it should be.
 */
export function realRoot(root: string): string {
  return exists(root) ? realpathSync(root) : path.resolve(root);
}

export function resolveInside(root: string, file: string): string {
  const realRootDir = realRoot(root);
  let existing = path.resolve(file);
  const missing: string[] = [];
  while (!exists(existing)) {
    missing.unshift(path.basename(existing));
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    throw new InputError(`${existing} is a symlink that leads nowhere: refusing to write through it`);
  }
  if (!within(realRootDir, real))
    throw new InputError(
      `${existing} resolves to ${real}, outside ${realRootDir}: refusing to follow a symlink there`,
    );
  const st = statSync(real);
  if (missing.length === 0) {
    if (!st.isFile()) throw new InputError(`${file} is not a regular file`);
  } else if (!st.isDirectory()) {
    throw new InputError(`${existing} is not a folder`);
  }
  return path.join(real, ...missing);
}

export interface CurrentFile {
  text: string | undefined;
  /** Permission bits to keep; undefined when the file does not exist yet. */
  mode: number | undefined;
}

export function readCurrent(realFile: string): CurrentFile {
  try {
    const st = statSync(realFile);
    return { text: readFileSync(realFile, 'utf8'), mode: st.mode & 0o777 };
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { text: undefined, mode: undefined };
    throw err;
  }
}

/** The folders between `root` and `file` that do not exist yet, outermost first. */
export function missingFolders(root: string, file: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(file);
  while (within(root, dir) && dir !== root && !exists(dir)) {
    out.unshift(dir);
    dir = path.dirname(dir);
  }
  return out;
}
