/**
 * The project's `.skillopt-sleep/` folder holds backups and reports that quote transcripts: they do not
 * belong in the repository, so the folder is made with a `.gitignore` of `*`. It arrives with a clone,
 * so it is untrusted: a symlink anywhere in it (the folder itself, `config.json`, `proposals/`, a file of
 * a proposal) is refused before anything is read or written, so nothing is read from or written to
 * wherever it points. Its folders are 0700 and its files 0600 (tightened when opened).
 */
import { readdirSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { keepPrivate, lstatOrUndefined, makePrivateDir, PRIVATE_FILE_MODE } from './private-mode.js';

/** Per-project folder for project config, proposals and logs. */
export const projectStateDir = (project: string): string => path.join(project, '.skillopt-sleep');

export const STATE_DIR_GITIGNORE = '# Made by skillopt-sleep: backups and reports stay out of git.\n*\n';

/** How many entries the check visits at most (a state folder holds tens of proposals, not millions). */
const MAX_ENTRIES = 20_000;

/**
 * Refuse a symlinked `<project>/.skillopt-sleep` or any symlink below it (exit 2), and tighten the
 * modes of what is there. A missing folder is fine (it is made when something is first written).
 */
export function checkProjectStateDir(project: string): void {
  const dir = projectStateDir(project);
  const st = lstatOrUndefined(dir);
  if (st === undefined) return;
  const stack: Array<[string, Stats]> = [[dir, st]];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_ENTRIES) {
    const [p, s] = stack.pop() as [string, Stats];
    seen += 1;
    if (s.isSymbolicLink()) {
      throw new InputError(
        `${p} is a symlink; refusing to read or write project state through it (replace it with a real ${p === dir ? 'folder' : 'file or folder'})`,
        'state_symlink',
      );
    }
    if (p === dir && !s.isDirectory()) throw new InputError(`${dir} is a file, not a folder: move it away`);
    keepPrivate(p, s);
    if (!s.isDirectory()) continue;
    for (const name of readdirSync(p)) {
      const child = path.join(p, name);
      const cs = lstatOrUndefined(child);
      if (cs !== undefined) stack.push([child, cs]);
    }
  }
}

/** Make `<project>/.skillopt-sleep` (0700, and the folders above it) if it is missing; returns its path. */
export function ensureProjectStateDir(project: string): string {
  checkProjectStateDir(project);
  const dir = projectStateDir(project);
  const existed = lstatOrUndefined(dir) !== undefined;
  makePrivateDir(dir);
  if (!existed) {
    writeFileSync(path.join(dir, '.gitignore'), STATE_DIR_GITIGNORE, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  }
  return dir;
}
