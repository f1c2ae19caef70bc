/**
 * An adopt or revert killed in the middle of an atomic write leaves that write's temp file
 * (`.tmp-<pid>-<hex>`) beside the file it was replacing. The next command removes those of writers
 * that are gone, only in the folders adopt and revert write for a proposal this machine staged: its
 * own folder, `backup/`, `revert-backup/`, and the folders of its targets as the store's manifest names
 * them (inside the project, or inside a recorded allowed root).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { removeDeadWritersTemps } from '../src/core/io/atomic-file.js';
import { isInsideDir, resolveRealPath } from './stage.js';
import type { ProposalManifest } from './types.js';

export async function removeLeftoverTemps(
  project: string,
  dir: string,
  manifest: ProposalManifest,
): Promise<string[]> {
  const folders = [dir, path.join(dir, 'backup'), path.join(dir, 'revert-backup')];
  folders.push(...(await targetFolders(project, manifest)));
  const removed: string[] = [];
  for (const folder of new Set(folders)) {
    for (const name of await removeDeadWritersTemps(folder)) removed.push(path.join(folder, name));
  }
  return removed;
}

async function targetFolders(project: string, manifest: ProposalManifest): Promise<string[]> {
  const realProject = await realpath(project);
  const roots = await Promise.all((manifest.allowedRoots ?? []).map((r) => realpath(r).catch(() => null)));
  const folders: string[] = [];
  for (const target of manifest.targets) {
    const real = await resolveRealPath(target.livePath).catch(() => null);
    if (real === null) continue;
    const allowed =
      isInsideDir(real, realProject) ||
      (target.allowOutside === true && roots.some((r) => r !== null && isInsideDir(real, r)));
    if (allowed) folders.push(path.dirname(real));
  }
  return folders;
}
