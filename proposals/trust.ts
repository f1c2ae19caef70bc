/**
 * A proposal folder arrives with a clone like the project's config, so its files are untrusted. A
 * folder is one of ours only when this machine's store recorded its manifest when a night staged it
 * (`ProposalLedger`): the manifest used is the store's copy, so its targets, `allowOutside` and
 * allowed roots never come from the folder, and a receipt (`adopted.json`) is believed only where it
 * agrees with that manifest. A folder the store never staged is foreign: listed with a note, never
 * adopted, reverted or recovered.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AdoptRefusedError, InputError, errnoCode, errorMessage } from '../src/core/errors.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';
import { parseJsonWith } from '../src/core/io/json-file.js';
import { MANIFEST_FILE, proposalManifestSchema, type AdoptedTarget, type ProposalManifest } from './types.js';

export type Verdict =
  | { kind: 'ours'; manifest: ProposalManifest }
  /** The store never staged it (it may have arrived with the repository). */
  | { kind: 'foreign'; reason: string }
  /** Staged here, but its files no longer say what the store recorded. */
  | { kind: 'altered'; reason: string };

export const FOREIGN_REASON =
  'not staged by this machine (the store has no record of it; it may have arrived with the repository)';

/** Whether the folder `dir` holds proposal `id` as this machine staged it, and its trusted manifest. */
export async function judgeProposal(dir: string, id: string, ledger: ProposalLedger): Promise<Verdict> {
  const record = ledger.staged(id);
  if (record === null) return { kind: 'foreign', reason: FOREIGN_REASON };
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    return {
      kind: 'altered',
      reason: `${MANIFEST_FILE} cannot be read (${errnoCode(err) ?? errorMessage(err)})`,
    };
  }
  if (record.manifest !== null && text !== record.manifest) {
    return {
      kind: 'altered',
      reason: `${MANIFEST_FILE} differs from what the store recorded when it was staged`,
    };
  }
  const parsed = parseJsonWith(record.manifest ?? text, proposalManifestSchema);
  if (!parsed.ok) return { kind: 'altered', reason: `${MANIFEST_FILE} ${parsed.problem}` };
  const manifest = parsed.value;
  if (manifest.id !== id) {
    return { kind: 'altered', reason: `${MANIFEST_FILE} names id ${JSON.stringify(manifest.id)}` };
  }
  if (record.manifest === null) {
    // Staged by a version that recorded only the live paths: believed for files inside the project.
    const known = new Set(record.targets);
    const outside = manifest.allowedRoots !== undefined || manifest.targets.some((t) => t.allowOutside);
    if (outside || !manifest.targets.every((t) => known.has(t.livePath))) {
      return {
        kind: 'altered',
        reason: `${MANIFEST_FILE} names files the store's record of it does not (staged by an older version: rerun the night)`,
      };
    }
  }
  return { kind: 'ours', manifest };
}

/** The trusted manifest of proposal `id`; a foreign or altered folder is refused (exit 2). */
export async function trustedManifest(
  dir: string,
  id: string,
  ledger: ProposalLedger,
): Promise<ProposalManifest> {
  const verdict = await judgeProposal(dir, id, ledger);
  if (verdict.kind === 'ours') return verdict.manifest;
  if (verdict.kind === 'foreign') {
    throw new AdoptRefusedError(
      `proposal ${id} was ${FOREIGN_REASON}; refusing to use it`,
      'foreign_proposal',
    );
  }
  throw new InputError(`proposal ${id} was modified after staging: ${verdict.reason}`, 'proposal_modified');
}

/** Where adoption keeps the old bytes of target `index` (the only place a receipt may name). */
export function backupPathOf(dir: string, index: number, livePath: string): string {
  return path.join(dir, 'backup', `${index + 1}-${path.basename(livePath)}`);
}

/**
 * A receipt's targets, each checked against the trusted manifest: a target it has, the hashes it
 * staged, the backup where adoption puts it. Returns each with its manifest index.
 */
export function checkReceiptTargets(
  manifest: ProposalManifest,
  dir: string,
  targets: readonly AdoptedTarget[],
): Array<{ target: AdoptedTarget; index: number }> {
  const seen = new Set<number>();
  return targets.map((target) => {
    const index = manifest.targets.findIndex((t) => t.livePath === target.livePath);
    const staged = manifest.targets[index];
    const problem =
      staged === undefined
        ? 'a file the proposal does not target'
        : seen.has(index)
          ? 'the same file twice'
          : target.sha256Before !== staged.baseSha256 || target.sha256After !== staged.proposedSha256
            ? 'hashes the proposal did not stage'
            : target.backupPath !==
                (staged.baseSha256 === '' ? '' : backupPathOf(dir, index, staged.livePath))
              ? 'a backup outside its backup folder'
              : '';
    if (problem !== '') {
      throw new AdoptRefusedError(
        `proposal ${manifest.id}: adopted.json names ${problem} (${target.livePath}); refusing to revert from it`,
        'receipt_mismatch',
      );
    }
    seen.add(index);
    return { target, index };
  });
}
