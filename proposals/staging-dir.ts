/**
 * A proposal is written into a private temporary folder (`.staging-<pid>-<start>-<random>` in the
 * proposals folder) and renamed to its id as the commit point: a kill at any moment leaves either no
 * proposal or a whole one, never a folder without its manifest. Leftovers of a killed staging are
 * removed by the next command (`recoverProject`), once the process that made them is gone. Just before
 * the rename the store records the manifest under the id (the reservation that makes the folder ours,
 * `ProposalLedger`); a reservation whose folder was never published is released the same way.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { IoError, errorMessage, errnoCode } from '../src/core/errors.js';
import { ownIdentity, processAlive } from '../src/core/process-identity.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { DIFF_FILE, MANIFEST_FILE, REPORT_JSON_FILE, REPORT_MD_FILE, STAGING_PREFIX } from './list.js';

/** How many `-2`, `-3`... suffixes we try before concluding something is wrong. */
const MAX_ID_COLLISIONS = 1000;
/** A manifest-less folder of an older version's staging this old is a leftover, not one being written. */
const LEGACY_LEFTOVER_MS = 10 * 60_000;
const STAGED_NAMES = new Set(['files', DIFF_FILE, REPORT_MD_FILE, REPORT_JSON_FILE]);

export async function createStagingDir(root: string): Promise<string> {
  const me = ownIdentity();
  const dir = path.join(
    root,
    `${STAGING_PREFIX}${me.pid}-${me.start || '0'}-${randomBytes(6).toString('hex')}`,
  );
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (err) {
    throw new IoError(`cannot create ${dir}: ${errorMessage(err)}`);
  }
  return dir;
}

/** How a staging claims an id: write the manifest naming it and reserve it in the store. */
export interface IdClaim {
  /** False when the id is taken (the store already knows a proposal of that id). */
  claim: (id: string) => Promise<boolean>;
  /** The folder could not be renamed to a claimed id. */
  unclaim: (id: string) => void;
}

/**
 * Rename the finished folder to the first free id (`baseId`, then `baseId-2`, …) that `claim` takes. A
 * rename never replaces a proposal: one that exists is not empty, so the rename fails and the next id
 * is tried.
 */
export async function commitStagingDir(
  staging: string,
  root: string,
  baseId: string,
  ids: IdClaim,
): Promise<{ id: string; dir: string }> {
  for (let n = 1; n <= MAX_ID_COLLISIONS; n++) {
    const id = n === 1 ? baseId : `${baseId}-${n}`;
    const dir = path.join(root, id);
    if (await exists(dir)) continue;
    if (!(await ids.claim(id))) continue;
    try {
      await rename(staging, dir);
      return { id, dir };
    } catch (err) {
      ids.unclaim(id);
      const code = errnoCode(err);
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'EPERM')
        throw new IoError(`cannot publish proposal ${id}: ${errorMessage(err)}`);
    }
  }
  throw new IoError(`cannot create a proposal folder for ${baseId}: ${MAX_ID_COLLISIONS} ids already taken`);
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/** The pid and start time a staging folder's name records, or null when it is not one of ours. */
function stagingOwner(name: string): { pid: number; start: string } | null {
  const m = /^\.staging-(\d+)-(\d+)-[0-9a-f]+$/.exec(name);
  if (!m) return null;
  return { pid: Number(m[1]), start: m[2] === '0' ? '' : (m[2] ?? '') };
}

/**
 * A folder an older version left half-written: named like a proposal, no manifest, holding only what
 * staging writes before the manifest, and untouched for a while.
 */
async function isLegacyLeftover(dir: string, now: number): Promise<boolean> {
  const names = await readdir(dir);
  if (names.includes(MANIFEST_FILE)) return false;
  if (!names.every((n) => STAGED_NAMES.has(n) || n.startsWith('.tmp-'))) return false;
  return now - (await lstat(dir)).mtimeMs > LEGACY_LEFTOVER_MS;
}

/** Remove what killed stagings left in the proposals folder; returns the names removed. */
export async function removeLeftoverStaging(root: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(root, entry.name);
    const owner = stagingOwner(entry.name);
    const leftover = owner
      ? !processAlive(owner)
      : /^\d{8}-\d{6}-\d+(-\d+)?$/.test(entry.name) && (await isLegacyLeftover(dir, now));
    if (!leftover) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/**
 * Reservations a staging left: published (killed after the rename) are completed; those of a staging
 * process that is gone, whose folder never appeared, are released. A live staging's is left alone.
 */
export async function settleReservations(root: string, ledger: ProposalLedger): Promise<void> {
  for (const r of ledger.unpublished()) {
    // Its process first: once it is gone, whether the folder exists can no longer change.
    const owner = stagingOwner(path.basename(r.stagingDir));
    if (owner !== null && processAlive(owner)) continue;
    const dir = path.join(root, r.id);
    if (await exists(dir)) ledger.published(r.id, dir);
    else ledger.release(r.id);
  }
}
