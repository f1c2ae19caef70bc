/**
 * Carrying out a plan: backups first, then each file written atomically (temp, fsync, rename) with
 * its permission bits kept (new files 0644 and folders 0755, as the agents make them), then the ledger.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import { IoError, errorMessage } from '../core/errors.js';
import { Ledger, written } from './ledger.js';
import type { FileChange } from './plan.js';

const NEW_FILE_MODE = 0o644;
const NEW_FOLDER_MODE = 0o755;

export const changes = (plan: readonly FileChange[]): FileChange[] =>
  plan.filter((c) => c.after !== c.before);

function writeKeepingMode(c: FileChange, text: string): void {
  const mode = c.mode ?? NEW_FILE_MODE;
  writeFileAtomicSync(c.file, text, mode);
  // The temp file was made under the umask: give the file back exactly the bits it had.
  if ((statSync(c.file).mode & 0o777) !== mode) chmodSync(c.file, mode);
}

function removeIfEmpty(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

function failed(c: FileChange, err: unknown): never {
  throw new IoError(`could not write ${c.path}: ${errorMessage(err)}`);
}

export function applyInstall(plan: readonly FileChange[], home: string, agent: string): void {
  const ledger = new Ledger(home);
  for (const c of changes(plan)) {
    const entry = ledger.get(c.file);
    // Changed by someone since we wrote it: its old copy is no longer "the file without us", so an
    // uninstall must cut out our part rather than put that copy back.
    const stale =
      entry !== undefined && (c.before === undefined || written(c.before) !== entry.written_sha256);
    try {
      // Two files of one agent can share a new folder: the first one made it.
      const made = c.folders.filter((dir) => !existsSync(dir));
      for (const dir of made) mkdirSync(dir, { mode: NEW_FOLDER_MODE });
      let backup: string | null;
      if (!entry) backup = c.before === undefined ? null : ledger.backup(c.file, c.before);
      else if (stale) {
        ledger.dropBackup(c.file);
        backup = null;
      } else backup = entry.backup;
      writeKeepingMode(c, c.after ?? '');
      const insertedAt = entry?.inserted_at ?? c.insertedAt;
      ledger.set(c.file, {
        existed: entry && !stale ? entry.existed : c.before !== undefined,
        backup,
        written_sha256: written(c.after ?? ''),
        created_dirs: entry ? [...entry.created_dirs, ...made] : made,
        ...(insertedAt ? { inserted_at: insertedAt } : {}),
        ...(entry?.agents ? { agents: entry.agents } : {}),
      });
    } catch (err) {
      ledger.save();
      failed(c, err);
    }
  }
  // Unchanged files too: a second agent's install that found our entry already there relies on it.
  for (const c of plan) ledger.addAgent(c.file, agent);
  ledger.save();
}

export function applyUninstall(plan: readonly FileChange[], home: string): string[] {
  const ledger = new Ledger(home);
  const folders = new Set<string>();
  for (const c of plan) {
    try {
      if (c.after !== c.before) {
        if (c.after === undefined) rmSync(c.file, { force: true });
        else writeKeepingMode(c, c.after);
      }
      if (c.action !== 'kept') {
        for (const dir of c.folders) folders.add(dir);
        ledger.forget(c.file);
      }
    } catch (err) {
      ledger.save();
      failed(c, err);
    }
  }
  ledger.save();
  // Innermost first, once every file is gone, so a folder two files shared goes too.
  return [...folders].sort((a, b) => b.length - a.length).filter(removeIfEmpty);
}
