/**
 * Adoption: plan everything (manifest intact, not adopted yet, live files unchanged since staging),
 * then back up, write every live file atomically, and record `adopted.json`. Any failure while
 * writing restores what was already written, so a proposal is applied completely or not at all.
 */
import { mkdir, open, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AdoptRefusedError, InputError, IoError, SkilloptError, errorMessage } from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import {
  DEFAULT_FILE_MODE,
  errorCode,
  isMissingPathError,
  readFileIfExists,
  writeFileAtomic,
} from './atomic-write.js';
import {
  ADOPTED_FILE,
  assertProposalId,
  checkProposalsRoot,
  isRealDirectory,
  latestProposal,
  loadManifest,
  proposalsRootOf,
  readAdoptedState,
} from './list.js';
import { assertEpochMs, assertTargetAllowed, resolveRealPath } from './stage.js';
import type {
  AdoptProposalOptions,
  AdoptReceipt,
  AdoptedRecord,
  AdoptedTarget,
  ManifestTarget,
  ProposalManifest,
} from './types.js';

export const ADOPT_LOCK_FILE = '.adopt.lock';

/** One live file to replace, fully decided before anything is written. */
interface PlannedWrite {
  target: ManifestTarget;
  /** Where the bytes go: the live path with symlinks resolved, so a symlinked CLAUDE.md stays a link. */
  writePath: string;
  proposed: Buffer;
  /** The live bytes now (equal to the staged base); null when the file does not exist. */
  original: Buffer | null;
  /** The live file's permission bits, kept on the new file. */
  mode: number;
  /** '' when there is nothing to back up. */
  backupPath: string;
}

interface AppliedWrite {
  plan: PlannedWrite;
  /** The first directory mkdir created for this file, removed again on rollback. */
  createdDir: string | undefined;
}

export async function adoptProposal(options: AdoptProposalOptions): Promise<AdoptReceipt> {
  assertEpochMs(options.now, 'adoption time');
  const project = path.resolve(options.projectDir);
  const { id, dir } = await locateProposal(project, options.id);
  const lockPath = path.join(dir, ADOPT_LOCK_FILE);
  await acquireLock(lockPath, id, options.now);
  try {
    const manifest = await loadManifest(dir, id);
    await assertSameProject(manifest, project);
    const proposed = await loadProposedFiles(dir, manifest);
    await assertNotAdopted(dir, id);
    const backupDir =
      options.backupRoot === undefined
        ? path.join(dir, 'backup')
        : path.join(path.resolve(options.backupRoot), id);
    const plan = await planWrites(project, manifest, proposed, backupDir);
    const record = await applyPlan(id, dir, plan, backupDir, options.now);
    return { id, dir, updatedPaths: plan.map((p) => p.target.livePath), targets: record.targets };
  } catch (err) {
    throw err instanceof SkilloptError
      ? err
      : new IoError(`adopt of proposal ${id} failed: ${errorMessage(err)}`);
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function locateProposal(project: string, id: string | undefined): Promise<{ id: string; dir: string }> {
  if (id === undefined) {
    const latest = await latestProposal(project);
    if (latest == null) {
      throw new AdoptRefusedError(`nothing to adopt: no staged proposal in ${project}`, 'no_proposal');
    }
    return { id: latest.id, dir: latest.dir };
  }
  assertProposalId(id);
  const root = proposalsRootOf(project);
  const dir = path.join(root, id);
  if (!(await checkProposalsRoot(root)) || !(await isRealDirectory(dir))) {
    throw new AdoptRefusedError(`nothing to adopt: no proposal ${id} in ${project}`, 'no_proposal');
  }
  return { id, dir };
}

/** Exclusive create: a second adopt running at the same time fails here instead of applying twice. */
async function acquireLock(lockPath: string, id: string, now: number): Promise<void> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', DEFAULT_FILE_MODE);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') {
      throw new AdoptRefusedError(
        `another adopt of proposal ${id} is in progress (lock ${lockPath}); if none is running, delete that file and retry`,
        'adopt_in_progress',
      );
    }
    throw new IoError(`cannot create ${lockPath}: ${errorMessage(err)}`);
  }
  try {
    await handle.writeFile(`${JSON.stringify({ pid: process.pid, startedAt: now })}\n`);
  } finally {
    await handle.close();
  }
}

/** Live paths are absolute; adopting them for another project (moved or copied folder) would be wrong. */
async function assertSameProject(manifest: ProposalManifest, project: string): Promise<void> {
  if (manifest.project === project) return;
  const [stagedReal, projectReal] = await Promise.all([
    realpath(manifest.project).catch(() => manifest.project),
    realpath(project),
  ]);
  if (stagedReal !== projectReal) {
    throw new InputError(`proposal ${manifest.id} was staged for ${manifest.project}, not ${project}`);
  }
}

/** The proposed bytes of every target, each checked against the hash recorded at staging. */
async function loadProposedFiles(dir: string, manifest: ProposalManifest): Promise<Buffer[]> {
  const files: Buffer[] = [];
  for (const target of manifest.targets) {
    const bytes = await readFileIfExists(path.join(dir, target.proposedFile));
    if (bytes == null || sha256Hex(bytes) !== target.proposedSha256) {
      const why = bytes == null ? 'is missing' : 'does not match its recorded sha256';
      throw new InputError(
        `proposal ${manifest.id} was modified after staging (${target.proposedFile} ${why})`,
        'proposal_modified',
      );
    }
    files.push(bytes);
  }
  return files;
}

async function assertNotAdopted(dir: string, id: string): Promise<void> {
  const state = await readAdoptedState(dir, id);
  if (!state.adopted) return;
  const when =
    state.record == null
      ? `an unknown time (${state.problem ?? 'adopted.json unreadable'})`
      : new Date(state.record.adoptedAt).toISOString();
  throw new AdoptRefusedError(`proposal ${id} was already adopted at ${when}`, 'already_adopted');
}

/** Decide every write and check every live file before touching any of them. */
async function planWrites(
  project: string,
  manifest: ProposalManifest,
  proposed: readonly Buffer[],
  backupDir: string,
): Promise<PlannedWrite[]> {
  const realProject = await realpath(project);
  const plan: PlannedWrite[] = [];
  const changed: string[] = [];
  const seen = new Set<string>();
  for (const [index, target] of manifest.targets.entries()) {
    // Re-checked here because the manifest is a file anyone could have edited since staging.
    await assertTargetAllowed(target.livePath, project, realProject, target.allowOutside === true);
    const writePath = await resolveRealPath(target.livePath);
    if (seen.has(writePath)) throw new InputError(`proposal ${manifest.id} targets ${writePath} twice`);
    seen.add(writePath);
    const original = await readLiveFile(writePath);
    if (original === 'unreadable' || sha256OrEmpty(original) !== target.baseSha256) {
      changed.push(target.livePath);
      continue;
    }
    plan.push({
      target,
      writePath,
      proposed: proposedAt(proposed, index),
      original,
      mode: original == null ? DEFAULT_FILE_MODE : await fileMode(writePath),
      backupPath:
        original == null ? '' : path.join(backupDir, `${index + 1}-${path.basename(target.livePath)}`),
    });
  }
  if (changed.length > 0) {
    throw new AdoptRefusedError(
      `${changed.join(', ')} changed since the proposal was staged; rerun the night or merge by hand`,
      'live_changed',
    );
  }
  return plan;
}

/** null when absent; 'unreadable' when something that is not a file sits there (e.g. a directory). */
async function readLiveFile(file: string): Promise<Buffer | null | 'unreadable'> {
  try {
    return await readFileIfExists(file);
  } catch (err) {
    if (errorCode(err) === 'EISDIR') return 'unreadable';
    throw new IoError(`cannot read ${file}: ${errorMessage(err)}`);
  }
}

function sha256OrEmpty(bytes: Buffer | null): string {
  return bytes == null ? '' : sha256Hex(bytes);
}

function proposedAt(proposed: readonly Buffer[], index: number): Buffer {
  const bytes = proposed[index];
  if (bytes === undefined) throw new Error(`unreachable: no proposed bytes for target ${index}`);
  return bytes;
}

async function fileMode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

async function applyPlan(
  id: string,
  dir: string,
  plan: readonly PlannedWrite[],
  backupDir: string,
  now: number,
): Promise<AdoptedRecord> {
  await writeBackups(plan, backupDir);
  const applied: AppliedWrite[] = [];
  let current = path.join(dir, ADOPTED_FILE);
  try {
    for (const write of plan) {
      current = write.target.livePath;
      // Recorded before writing: rollback is idempotent, so a write that failed halfway is safe to undo.
      applied.push({
        plan: write,
        createdDir: await mkdir(path.dirname(write.writePath), { recursive: true }),
      });
      await writeFileAtomic(write.writePath, write.proposed, write.mode);
    }
    current = path.join(dir, ADOPTED_FILE);
    const record = receiptFor(plan, now);
    await writeFileAtomic(current, `${JSON.stringify(record, null, 2)}\n`);
    return record;
  } catch (err) {
    const failures = await rollBack(applied);
    if (failures.length > 0) {
      throw new IoError(
        `adopt of proposal ${id} failed writing ${current} (${errorMessage(err)}) and could not restore ` +
          `${failures.join('; ')}; the original files are in ${backupDir}`,
      );
    }
    throw new IoError(
      `adopt of proposal ${id} failed writing ${current}: ${errorMessage(err)}; ` +
        `restored ${applied.length} file(s), nothing was adopted`,
    );
  }
}

/** Every original is safe on disk before the first live file changes. */
async function writeBackups(plan: readonly PlannedWrite[], backupDir: string): Promise<void> {
  const toBackUp = plan.filter((p) => p.original != null);
  if (toBackUp.length === 0) return;
  try {
    await mkdir(backupDir, { recursive: true });
    for (const write of toBackUp) {
      if (write.original != null) await writeFileAtomic(write.backupPath, write.original, write.mode);
    }
  } catch (err) {
    throw new IoError(`cannot back up live files to ${backupDir}: ${errorMessage(err)}; nothing was adopted`);
  }
}

function receiptFor(plan: readonly PlannedWrite[], now: number): AdoptedRecord {
  const targets: AdoptedTarget[] = plan.map((write) => ({
    livePath: write.target.livePath,
    sha256Before: write.target.baseSha256,
    sha256After: write.target.proposedSha256,
    backupPath: write.backupPath,
  }));
  return { adoptedAt: now, targets };
}

/** Undo in reverse order; returns what could not be restored. */
async function rollBack(applied: readonly AppliedWrite[]): Promise<string[]> {
  const failures: string[] = [];
  for (const { plan, createdDir } of [...applied].reverse()) {
    try {
      if (plan.original == null) await unlinkIfPresent(plan.writePath);
      else await writeFileAtomic(plan.writePath, plan.original, plan.mode);
      if (createdDir !== undefined) await removeCreatedDirs(path.dirname(plan.writePath), createdDir);
    } catch (err) {
      failures.push(`${plan.target.livePath} (${errorMessage(err)})`);
    }
  }
  return failures;
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    if (!isMissingPathError(err)) throw err;
  }
}

/** Remove the directories mkdir created, deepest first; stop at one that is not empty. */
async function removeCreatedDirs(deepest: string, firstCreated: string): Promise<void> {
  let dir = deepest;
  for (;;) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    if (dir === firstCreated) return;
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
