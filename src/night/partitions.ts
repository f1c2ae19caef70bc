/**
 * Which project each session ran in, so the miner never groups sessions of two projects: when the
 * mined folder holds several repositories (a `~/work` with one clone per project), or with
 * `--scope all`, each session belongs to the nearest folder at or above its working folder that holds
 * a `.git`. When none is found (not a repository, or the folder is not on this machine: the logs came
 * from another machine or OS, or the folder moved), it belongs to its own recorded folder, except that a
 * session inside the mined project folder (scope `invoked`) belongs to that project: a project that is
 * not a repository still mines as one, whichever of its subfolders its sessions ran in.
 *
 * Folders are in the normal form of `src/core/project-path.ts` (`/home/me/web`, `c:/users/me/web`), and
 * are walked as strings: `path.resolve` would put this machine's working folder in front of a
 * Windows-recorded path on Linux. A path of the other OS's form is never looked up on disk.
 */
import fs from 'node:fs';
import { isPathOfPlatform } from '../core/project-path.js';
import type { Scope } from '../store/sessions-repo.js';

const MAX_LEVELS = 12;
const WINDOWS_FORM = /^[a-z]:\//i;

export interface PartitionOptions {
  /** The mined project folder (normal form). */
  project: string;
  scope: Scope;
  platform?: NodeJS.Platform;
  exists?: (p: string) => boolean;
}

export function repositoryPartitions(roots: readonly string[], opts: PartitionOptions): string[] {
  const exists = opts.exists ?? fs.existsSync;
  const platform = opts.platform ?? process.platform;
  const project = opts.project;
  const projectPrefix = project.endsWith('/') ? project : `${project}/`;
  const cache = new Map<string, string>();
  const partitionOf = (root: string): string => {
    const inside = opts.scope === 'invoked' && (root === project || root.startsWith(projectPrefix));
    let current: string | null = root;
    for (let level = 0; level < MAX_LEVELS && current !== null; level++) {
      if (
        isPathOfPlatform(current, platform) &&
        exists(`${current.endsWith('/') ? current : `${current}/`}.git`)
      )
        return current;
      // Inside the project, look no higher than its root: a repository above it would be one
      // partition for all of them, as the project is.
      if (inside && current === project) break;
      current = parentOf(current);
    }
    return inside ? project : root;
  };
  return roots.map((root) => {
    if (root === '') return '';
    let found = cache.get(root);
    if (found === undefined) {
      found = partitionOf(root);
      cache.set(root, found);
    }
    return found;
  });
}

/** The folder above `p` (`/a/b` → `/a`, `c:/a` → `c:/`), or null at the top or for a relative path. */
export function parentOf(p: string): string | null {
  const top = WINDOWS_FORM.test(p) ? 3 : p.startsWith('/') ? 1 : 0;
  if (top === 0 || p.length <= top) return null;
  const cut = p.replace(/\/+$/, '').lastIndexOf('/');
  return cut < top ? p.slice(0, top) : p.slice(0, cut);
}
