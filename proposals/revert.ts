/**
 * `revert [ID]`: undo an adoption from its receipt, as one journaled transaction (commit marker:
 * `reverted.json`). The receipt is a file of the proposal folder, so each of its targets must be one
 * the store's manifest staged, with its hashes and its backup in the folder, and every path it
 * writes or removes stays inside the project (or the allowed roots the store recorded). Refused when
 * a live file was edited after the adoption, unless forced; what a revert replaces is copied to
 * `revert-backup/` first, so even a forced revert loses nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AdoptRefusedError, IoError, SkilloptError, errorMessage } from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import { commitAdoption, gitPrecheck } from './git.js';
import { REVERTED_FILE, listProposals, readAdoptedState } from './list.js';
import { assertInsideAllowedRoots, locateProposal } from './adopt.js';
import { acquireProposalLock, releaseProposalLock } from './lock.js';
import { recoverProject } from './recover.js';
import { assertEpochMs, assertTargetAllowed, isInsideDir, resolveRealPath } from './stage.js';
import { StepCounter, removeCreatedDirs, runTransaction } from './transaction.js';
import { checkReceiptTargets, trustedManifest } from './trust.js';
import type {
  AdoptedTarget,
  Checkpoint,
  GitOutcome,
  ManifestTarget,
  ProposalManifest,
  RecoveryNote,
  RevertedRecord,
} from './types.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { DEFAULT_FILE_MODE, writeFileAtomic } from '../src/core/io/atomic-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { readFileIfExists } from '../src/core/io/read-file.js';

export interface RevertOptions {
  projectDir: string;
  /** Default: the newest adopted proposal. */
  id?: string;
  now: number;
  /** Revert files edited after the adoption too (their current text is kept in revert-backup/). */
  force?: boolean;
  commit?: boolean;
  checkpoint?: Checkpoint;
  /** The store's record of the project's proposals: only those it staged are reverted. */
  ledger: ProposalLedger;
}

export interface RevertReceipt {
  id: string;
  dir: string;
  restoredPaths: string[];
  /** Files that already held their pre-adoption text. */
  unchangedPaths: string[];
  record: RevertedRecord;
  git?: GitOutcome;
  recovered: RecoveryNote[];
}

interface PlannedRestore {
  target: AdoptedTarget;
  writePath: string;
  current: Buffer | null;
  restored: Buffer | null;
  copyPath: string;
  mode: number;
  /** The first folder the adoption created ('' when none, or when the receipt's is not one). */
  createdDir: string;
}

export async function revertProposal(options: RevertOptions): Promise<RevertReceipt> {
  assertEpochMs(options.now, 'revert time');
  const project = path.resolve(options.projectDir);
  const step = new StepCounter(options.checkpoint);
  const { ledger } = options;
  const recovered = await recoverProject(project, ledger);
  const { id, dir } = await locateAdopted(project, options.id, ledger);
  const lockPath = await acquireProposalLock(dir, id, options.now);
  step.reach('lock taken');
  try {
    const manifest = await trustedManifest(dir, id, ledger);
    const state = await readAdoptedState(dir, id);
    if (!state.adopted || state.record == null) {
      throw new AdoptRefusedError(`proposal ${id} has no readable adoption receipt to revert`, 'not_adopted');
    }
    const plan = await planRestores(project, dir, manifest, state.record.targets, options.force === true);
    const active = plan.filter((p) => sha256OrEmpty(p.current) !== p.target.sha256Before);
    const git =
      options.commit === true && active.length > 0
        ? await gitPrecheck(
            project,
            active.map((p) => p.writePath),
            'revert',
          )
        : null;
    for (const p of active) {
      if (p.current != null) {
        await mkdir(path.dirname(p.copyPath), { recursive: true, mode: PRIVATE_DIR_MODE });
        await writeFileAtomic(p.copyPath, p.current, PRIVATE_FILE_MODE);
      }
    }
    step.reach('copies written');
    const txId = `${options.now}-${randomBytes(4).toString('hex')}`;
    const record: RevertedRecord = {
      revertedAt: options.now,
      txId,
      forced: options.force === true,
      targets: active.map((p) => ({
        livePath: p.target.livePath,
        sha256Before: sha256OrEmpty(p.current) || p.target.sha256After,
        sha256After: p.target.sha256Before,
        backupPath: p.current == null ? '' : p.copyPath,
      })),
    };
    await runTransaction({
      dir,
      txId,
      kind: 'revert',
      proposalId: id,
      now: options.now,
      step,
      ledger,
      files: active.map((p) => ({
        livePath: p.target.livePath,
        writePath: p.writePath,
        before: p.current,
        beforeCopy: p.current == null ? '' : p.copyPath,
        after: p.restored,
        mode: p.mode,
      })),
      commit: async () => {
        await writeFileAtomic(
          path.join(dir, REVERTED_FILE),
          `${JSON.stringify(record, null, 2)}\n`,
          PRIVATE_FILE_MODE,
        );
      },
    });
    for (const p of active) {
      if (p.restored == null && p.createdDir !== '') {
        await removeCreatedDirs(path.dirname(p.writePath), p.createdDir);
      }
    }
    const receipt: RevertReceipt = {
      id,
      dir,
      restoredPaths: active.map((p) => p.target.livePath),
      unchangedPaths: plan.filter((p) => !active.includes(p)).map((p) => p.target.livePath),
      record,
      recovered,
    };
    if (git) {
      receipt.git = await commitAdoption(
        git,
        dir,
        id,
        active.map((p) => p.writePath),
        'revert',
      );
    }
    return receipt;
  } catch (err) {
    throw err instanceof SkilloptError
      ? err
      : new IoError(`revert of proposal ${id} failed: ${errorMessage(err)}; nothing was reverted`);
  } finally {
    await releaseProposalLock(lockPath);
  }
}

async function locateAdopted(
  project: string,
  id: string | undefined,
  ledger: ProposalLedger,
): Promise<{ id: string; dir: string }> {
  const { proposals } = await listProposals(project, ledger);
  if (id === undefined) {
    const latest = proposals.find((p) => p.status === 'adopted');
    if (latest === undefined) {
      throw new AdoptRefusedError(`nothing to revert: no adopted proposal in ${project}`, 'no_adoption');
    }
    return { id: latest.id, dir: latest.dir };
  }
  const located = await locateProposal(project, id, ledger);
  const status = proposals.find((p) => p.id === id)?.status;
  if (status === 'reverted') {
    throw new AdoptRefusedError(`proposal ${id} was already reverted`, 'already_reverted');
  }
  if (status !== 'adopted') {
    throw new AdoptRefusedError(
      `proposal ${id} was never adopted (status ${status ?? 'unknown'})`,
      'not_adopted',
    );
  }
  return located;
}

async function planRestores(
  project: string,
  dir: string,
  manifest: ProposalManifest,
  targets: readonly AdoptedTarget[],
  force: boolean,
): Promise<PlannedRestore[]> {
  const { id } = manifest;
  const realProject = await realpath(project);
  const plan: PlannedRestore[] = [];
  const edited: string[] = [];
  for (const [n, { target, index }] of checkReceiptTargets(manifest, dir, targets).entries()) {
    const staged = manifest.targets[index] as ManifestTarget;
    await assertTargetAllowed(target.livePath, project, realProject, staged.allowOutside === true);
    const writePath = await resolveRealPath(target.livePath);
    await assertInsideAllowedRoots(manifest, staged, writePath);
    const current = await readFileIfExists(writePath);
    const currentSha = sha256OrEmpty(current);
    if (currentSha !== target.sha256After && currentSha !== target.sha256Before) edited.push(target.livePath);
    let restored: Buffer | null = null;
    if (target.sha256Before !== '') {
      restored = await readFileIfExists(target.backupPath);
      if (restored == null || sha256Hex(restored) !== target.sha256Before) {
        throw new IoError(
          `cannot revert proposal ${id}: the backup ${target.backupPath || '(none)'} of ${target.livePath} is missing or altered`,
        );
      }
    }
    plan.push({
      target,
      writePath,
      current,
      restored,
      copyPath: path.join(dir, 'revert-backup', `${n + 1}-${path.basename(target.livePath)}`),
      mode: current == null ? DEFAULT_FILE_MODE : (await stat(writePath)).mode & 0o777,
      createdDir: await createdDirOf(
        target,
        writePath,
        staged.allowOutside === true ? manifest : realProject,
      ),
    });
  }
  if (edited.length > 0 && !force) {
    throw new AdoptRefusedError(
      `${edited.join(', ')} changed after proposal ${id} was adopted; merge by hand or pass --force (the current text is kept in revert-backup/)`,
      'live_changed',
    );
  }
  return plan;
}

/**
 * The receipt's first created folder, when it is the written file's folder or one above it and lies
 * inside the project (or, for a target outside it, inside an allowed root): only empty folders are
 * removed, but never up a path the receipt made up.
 */
async function createdDirOf(
  target: AdoptedTarget,
  writePath: string,
  bound: string | ProposalManifest,
): Promise<string> {
  const created = target.createdDir ?? '';
  const folder = path.dirname(writePath);
  if (created === '' || (created !== folder && !isInsideDir(folder, created))) return '';
  const roots =
    typeof bound === 'string'
      ? [bound]
      : await Promise.all((bound.allowedRoots ?? []).map((r) => realpath(r).catch(() => null)));
  return roots.some((root) => root !== null && isInsideDir(created, root)) ? created : '';
}

function sha256OrEmpty(bytes: Buffer | null): string {
  return bytes == null ? '' : sha256Hex(bytes);
}
