/**
 * Adoption: plan everything (the manifest the store recorded at staging, proposed files intact,
 * proposal adoptable, selected targets pending, live files unchanged since staging, inside the
 * project or the allowed roots the store recorded, git clean when committing), then back up and
 * change the live files as one journaled transaction (`transaction.ts`) whose commit marker is
 * `adopted.json`. A proposal may be adopted in parts (`select`); each part is all or nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  AdoptRefusedError,
  InputError,
  IoError,
  SkilloptError,
  errorMessage,
  errnoCode,
} from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import { commitAdoption, gitPrecheck, type GitPlan } from './git.js';
import {
  ADOPTED_FILE,
  assertProposalId,
  checkProposalsRoot,
  isRealDirectory,
  listProposals,
  proposalsRootOf,
  readAdoptedState,
  targetName,
} from './list.js';
import { acquireProposalLock, releaseProposalLock } from './lock.js';
import { recoverProject } from './recover.js';
import { assertEpochMs, assertTargetAllowed, isInsideDir, resolveRealPath } from './stage.js';
import { StepCounter, runTransaction } from './transaction.js';
import { backupPathOf, trustedManifest } from './trust.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import type {
  AdoptProposalOptions,
  AdoptReceipt,
  AdoptedRecord,
  AdoptedTarget,
  ManifestTarget,
  ProposalManifest,
  TargetSelection,
} from './types.js';
import { DEFAULT_FILE_MODE, writeFileAtomic } from '../src/core/io/atomic-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { readFileIfExists } from '../src/core/io/read-file.js';

/** One live file to replace, fully decided before anything is written. */
interface PlannedWrite {
  index: number;
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

export async function adoptProposal(options: AdoptProposalOptions): Promise<AdoptReceipt> {
  assertEpochMs(options.now, 'adoption time');
  const project = path.resolve(options.projectDir);
  const step = new StepCounter(options.checkpoint);
  const { ledger } = options;
  const recovered = await recoverProject(project, ledger);
  const { id, dir } = await locateProposal(project, options.id, ledger);
  const lockPath = await acquireProposalLock(dir, id, options.now);
  step.reach('lock taken');
  try {
    const manifest = await trustedManifest(dir, id, ledger);
    await assertSameProject(manifest, project);
    const proposed = await loadProposedFiles(dir, manifest);
    await assertAdoptable(project, id, ledger);
    const previous = await readAdoptedState(dir, id);
    const previousRecord = previous.adopted ? previous.record : null;
    if (previous.adopted && previousRecord == null) {
      throw new AdoptRefusedError(
        `proposal ${id}: adopted.json is unreadable (${previous.problem ?? 'unknown problem'})`,
        'already_adopted',
      );
    }
    const chosen = selectTargets(manifest, previousRecord, options.select ?? {});
    const plan = await planWrites(project, dir, manifest, chosen, proposed);
    const git =
      options.commit === true
        ? await gitPrecheck(
            project,
            plan.map((p) => p.writePath),
          )
        : null;
    await writeBackups(plan, path.join(dir, 'backup'));
    step.reach('backups written');
    const txId = `${options.now}-${randomBytes(4).toString('hex')}`;
    let targets: AdoptedTarget[] = [];
    await runTransaction({
      dir,
      txId,
      kind: 'adopt',
      proposalId: id,
      now: options.now,
      step,
      ledger,
      files: plan.map((p) => ({
        livePath: p.target.livePath,
        writePath: p.writePath,
        before: p.original,
        beforeCopy: p.backupPath,
        after: p.proposed,
        mode: p.mode,
      })),
      commit: async (createdDirs) => {
        targets = plan.map((p, i) => receiptTarget(p, options.now, txId, createdDirs[i] ?? ''));
        const record: AdoptedRecord = {
          ...(previousRecord ?? {}),
          adoptedAt: options.now,
          targets: [...(previousRecord?.targets ?? []), ...targets],
        };
        await writeFileAtomic(
          path.join(dir, ADOPTED_FILE),
          `${JSON.stringify(record, null, 2)}\n`,
          PRIVATE_FILE_MODE,
        );
      },
    });
    const receipt: AdoptReceipt = {
      id,
      dir,
      updatedPaths: plan.map((p) => p.target.livePath),
      targets,
      recovered,
    };
    if (git) {
      receipt.git = await commitAdoption(
        git,
        dir,
        id,
        plan.map((p) => p.writePath),
      );
      if (receipt.git.commit !== undefined) await recordCommit(dir, id, receipt.git.commit);
    }
    return receipt;
  } catch (err) {
    throw err instanceof SkilloptError
      ? err
      : new IoError(`adopt of proposal ${id} failed: ${errorMessage(err)}; nothing was adopted`);
  } finally {
    await releaseProposalLock(lockPath);
  }
}

function receiptTarget(p: PlannedWrite, now: number, txId: string, createdDir: string): AdoptedTarget {
  return {
    livePath: p.target.livePath,
    sha256Before: p.target.baseSha256,
    sha256After: p.target.proposedSha256,
    backupPath: p.backupPath,
    kind: p.target.kind,
    name: targetName(p.target),
    adoptedAt: now,
    txId,
    ...(createdDir !== '' ? { createdDir } : {}),
  };
}

/** The folder of proposal `id`, or of the newest one this machine staged that is still in play. */
export async function locateProposal(
  project: string,
  id: string | undefined,
  ledger: ProposalLedger,
): Promise<{ id: string; dir: string }> {
  if (id === undefined) {
    // The newest proposal still in play; rejected, reverted and superseded ones are passed over.
    const { proposals } = await listProposals(project, ledger);
    const latest = proposals.find((p) => p.status === 'staged' || p.status === 'adopted') ?? proposals[0];
    if (latest == null) {
      throw new AdoptRefusedError(`nothing to adopt: no staged proposal in ${project}`, 'no_proposal');
    }
    return { id: latest.id, dir: latest.dir };
  }
  assertProposalId(id);
  const root = proposalsRootOf(project);
  const dir = path.join(root, id);
  if (!(await checkProposalsRoot(root)) || !(await isRealDirectory(dir))) {
    throw new AdoptRefusedError(`no proposal ${id} in ${project}`, 'no_proposal');
  }
  return { id, dir };
}

/** Rejected, reverted and superseded proposals are not adopted (adopted ones may still have parts pending). */
async function assertAdoptable(project: string, id: string, ledger: ProposalLedger): Promise<void> {
  const summary = (await listProposals(project, ledger)).proposals.find((p) => p.id === id);
  if (summary === undefined) return;
  if (summary.status === 'rejected') {
    throw new AdoptRefusedError(`proposal ${id} was rejected`, 'rejected');
  }
  if (summary.status === 'reverted') {
    throw new AdoptRefusedError(`proposal ${id} was adopted and then reverted; rerun the night`, 'reverted');
  }
  if (summary.status === 'superseded') {
    throw new AdoptRefusedError(
      `proposal ${id} is superseded by ${summary.supersededBy ?? 'a newer proposal'} for the same files; adopt that one`,
      'superseded',
    );
  }
}

/** The targets a selection names, minus those already adopted. */
function selectTargets(
  manifest: ProposalManifest,
  previous: AdoptedRecord | null,
  select: TargetSelection,
): Array<{ index: number; target: ManifestTarget }> {
  const all = manifest.targets.map((target, index) => ({ index, target }));
  const skills = all.filter((t) => t.target.kind === 'skill');
  const wantsSubset = (select.skills?.length ?? 0) > 0 || select.allSkills === true || select.memory === true;
  let chosen = all;
  if (wantsSubset) {
    const names = new Set(select.skills ?? []);
    const known = new Set(skills.map((t) => targetName(t.target)));
    const unknown = [...names].filter((n) => !known.has(n));
    if (unknown.length > 0) {
      throw new InputError(
        `proposal ${manifest.id} has no skill ${unknown.map((n) => JSON.stringify(n)).join(', ')}; it has: ${[...known].join(', ') || 'no skills'}`,
        'invalid_selection',
      );
    }
    if (select.memory === true && !all.some((t) => t.target.kind === 'memory')) {
      throw new InputError(`proposal ${manifest.id} has no memory document`, 'invalid_selection');
    }
    chosen = all.filter(({ target }) =>
      target.kind === 'memory'
        ? select.memory === true
        : select.allSkills === true || names.has(targetName(target)),
    );
  }
  const done = new Set(previous?.targets.map((t) => t.livePath) ?? []);
  const pending = chosen.filter((t) => !done.has(t.target.livePath));
  if (pending.length === 0) {
    const when = previous ? new Date(previous.adoptedAt).toISOString() : 'an unknown time';
    throw new AdoptRefusedError(`proposal ${manifest.id} was already adopted at ${when}`, 'already_adopted');
  }
  return pending;
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

/** Decide every write and check every live file before touching any of them. */
async function planWrites(
  project: string,
  dir: string,
  manifest: ProposalManifest,
  chosen: ReadonlyArray<{ index: number; target: ManifestTarget }>,
  proposed: readonly Buffer[],
): Promise<PlannedWrite[]> {
  const realProject = await realpath(project);
  const plan: PlannedWrite[] = [];
  const changed: string[] = [];
  const seen = new Set<string>();
  for (const { index, target } of chosen) {
    // Re-checked here: the live path may have become a symlink since staging.
    await assertTargetAllowed(target.livePath, project, realProject, target.allowOutside === true);
    const writePath = await resolveRealPath(target.livePath);
    await assertInsideAllowedRoots(manifest, target, writePath);
    if (seen.has(writePath)) throw new InputError(`proposal ${manifest.id} targets ${writePath} twice`);
    seen.add(writePath);
    const bytes = proposed[index];
    if (bytes === undefined) throw new Error(`unreachable: no proposed bytes for target ${index}`);
    const original = await readLiveFile(writePath);
    if (original === 'unreadable' || sha256OrEmpty(original) !== target.baseSha256) {
      changed.push(target.livePath);
      continue;
    }
    if (original == null && bytes.toString('utf8').trim() === '') {
      throw new InputError(
        `proposal ${manifest.id} would create ${target.livePath} empty; refusing`,
        'empty_file',
      );
    }
    plan.push({
      index,
      target,
      writePath,
      proposed: bytes,
      original,
      mode: original == null ? DEFAULT_FILE_MODE : await fileMode(writePath),
      backupPath: original == null ? '' : backupPathOf(dir, index, target.livePath),
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

/** A target outside the project must resolve inside one of the skill folders the night searched. */
export async function assertInsideAllowedRoots(
  manifest: ProposalManifest,
  target: ManifestTarget,
  writePath: string,
): Promise<void> {
  if (target.allowOutside !== true || manifest.allowedRoots === undefined) return;
  for (const root of manifest.allowedRoots) {
    const realRoot = await realpath(root).catch(() => null);
    if (realRoot !== null && isInsideDir(writePath, realRoot)) return;
  }
  throw new AdoptRefusedError(
    `target ${target.livePath} is outside the allowed skill folders (${manifest.allowedRoots.join(', ')})`,
    'outside_roots',
  );
}

/** null when absent; 'unreadable' when something that is not a file sits there (e.g. a directory). */
async function readLiveFile(file: string): Promise<Buffer | null | 'unreadable'> {
  try {
    return await readFileIfExists(file);
  } catch (err) {
    if (errnoCode(err) === 'EISDIR') return 'unreadable';
    throw new IoError(`cannot read ${file}: ${errorMessage(err)}`);
  }
}

function sha256OrEmpty(bytes: Buffer | null): string {
  return bytes == null ? '' : sha256Hex(bytes);
}

async function fileMode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

/** Every original is safe on disk before the journal names it and the first live file changes. */
async function writeBackups(plan: readonly PlannedWrite[], backupDir: string): Promise<void> {
  const toBackUp = plan.filter((p) => p.original != null);
  if (toBackUp.length === 0) return;
  try {
    await mkdir(backupDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    for (const write of toBackUp) {
      // Private like the rest of the proposal folder; the live file's own mode is in the journal.
      if (write.original != null) await writeFileAtomic(write.backupPath, write.original, PRIVATE_FILE_MODE);
    }
  } catch (err) {
    throw new IoError(`cannot back up live files to ${backupDir}: ${errorMessage(err)}; nothing was adopted`);
  }
}

async function recordCommit(dir: string, id: string, commit: string): Promise<void> {
  const state = await readAdoptedState(dir, id);
  if (!state.adopted || state.record == null) return;
  const record: AdoptedRecord = { ...state.record, commits: [...(state.record.commits ?? []), commit] };
  await writeFileAtomic(
    path.join(dir, ADOPTED_FILE),
    `${JSON.stringify(record, null, 2)}\n`,
    PRIVATE_FILE_MODE,
  );
}

export type { GitPlan };
