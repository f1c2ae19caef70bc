/**
 * The project's `.skillopt-sleep/` folder holds backups and reports that quote transcripts: they do not
 * belong in the repository, so the folder is made with a `.gitignore` of `*`. A folder that already
 * exists is left as it is (its owner may have chosen to share `config.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Per-project folder for project config, proposals and logs. */
export const projectStateDir = (project: string): string => path.join(project, '.skillopt-sleep');

export const STATE_DIR_GITIGNORE = '# Made by skillopt-sleep: backups and reports stay out of git.\n*\n';

/** Make `<project>/.skillopt-sleep` (and the folders above it) if it is missing; returns its path. */
export function ensureProjectStateDir(project: string): string {
  const dir = projectStateDir(project);
  // The first folder mkdir made: set only when `dir` did not exist.
  if (mkdirSync(dir, { recursive: true }) !== undefined) {
    writeFileSync(path.join(dir, '.gitignore'), STATE_DIR_GITIGNORE, { flag: 'wx' });
  }
  return dir;
}
