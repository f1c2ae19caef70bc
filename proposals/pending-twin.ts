/**
 * An unchanged night proposes exactly what it proposed before; staging it again would only supersede
 * the pending proposal with a copy (a daemon on a short schedule made 104 of them). The newest pending
 * proposal this machine staged is the twin when it targets the same files with the same bases, the
 * same proposed bytes and the same allowed folders.
 */
import { listProposals } from './list.js';
import { judgeProposal } from './trust.js';
import type { ManifestTarget, StagedProposal } from './types.js';
import type { ProposalLedger } from '../src/core/proposal-ledger.js';

export async function pendingTwin(
  project: string,
  targets: readonly ManifestTarget[],
  allowedRoots: readonly string[] | undefined,
  ledger: ProposalLedger,
): Promise<StagedProposal | null> {
  const pending = (await listProposals(project, ledger)).proposals.find((p) => p.status === 'staged');
  if (pending === undefined) return null;
  const verdict = await judgeProposal(pending.dir, pending.id, ledger);
  if (verdict.kind !== 'ours') return null;
  const { manifest } = verdict;
  const same =
    JSON.stringify(manifest.targets.map(key)) === JSON.stringify(targets.map(key)) &&
    JSON.stringify(manifest.allowedRoots ?? []) === JSON.stringify(allowedRoots ?? []);
  return same ? { id: pending.id, dir: pending.dir, manifest } : null;
}

/** What adopting a target would do, field by field (key order of the objects plays no part). */
const key = (t: ManifestTarget): unknown[] => [
  t.kind,
  t.livePath,
  t.proposedFile,
  t.baseSha256,
  t.proposedSha256,
  t.allowOutside === true,
  t.name ?? '',
];
