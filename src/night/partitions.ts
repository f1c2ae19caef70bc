/**
 * Which repository each session ran in, so the miner never groups sessions of two projects: when the
 * mined folder holds several repositories (a `~/work` with one clone per project, or `--scope all`),
 * each session belongs to the nearest folder above its working folder that holds a `.git`. Sessions
 * with none found share the partition ''.
 */
import fs from 'node:fs';
import path from 'node:path';

const MAX_LEVELS = 12;

export function repositoryPartitions(
  cwds: readonly string[],
  projectRoot: string,
  exists: (p: string) => boolean = fs.existsSync,
): string[] {
  const cache = new Map<string, string>();
  const root = path.resolve(projectRoot);
  const find = (dir: string): string => {
    const cached = cache.get(dir);
    if (cached !== undefined) return cached;
    let found = '';
    let current = dir;
    for (let level = 0; level < MAX_LEVELS; level++) {
      if (exists(path.join(current, '.git'))) {
        found = current;
        break;
      }
      const parent = path.dirname(current);
      // Inside the project, look no higher than its root; a session outside it walks up to the top.
      if (current === root || parent === current) break;
      current = parent;
    }
    cache.set(dir, found);
    return found;
  };
  return cwds.map((cwd) => (cwd === '' ? '' : find(path.resolve(cwd))));
}
