/**
 * `run --auto-adopt` / `auto_adopt`: adopt the proposal a night just staged, through the same checked
 * adoption as `adopt` (hashes, live file unchanged, backups). A refusal leaves the proposal staged and is
 * reported, never thrown: the night itself succeeded.
 */
import { adoptProposal } from '../../proposals/index.js';
import { errorMessage } from '../core/errors.js';
import type { Db } from '../store/db.js';
import { proposalLedger } from '../store/proposal-ledger-repo.js';
import { markProposal } from '../store/proposals-repo.js';
import type { NightReport } from './night-report.js';

export type AutoAdoptOutcome =
  | { adopted: true; proposal_id: string; updated_paths: string[] }
  | { adopted: false; proposal_id: string; reason: string };

/** Null when there is nothing to adopt (dry-run, gate refused, no edits). `commit`: config adopt_commit. */
export async function autoAdopt(
  db: Db,
  report: NightReport,
  now: number,
  commit: boolean,
): Promise<AutoAdoptOutcome | null> {
  if (report.mode !== 'run' || !report.accepted || report.proposal_id === '') return null;
  try {
    const receipt = await adoptProposal({
      projectDir: report.project,
      id: report.proposal_id,
      now,
      commit,
      ledger: proposalLedger(db, report.project),
    });
    markProposal(db, report.project, receipt.id, 'adopted', now);
    return { adopted: true, proposal_id: receipt.id, updated_paths: receipt.updatedPaths };
  } catch (err) {
    return { adopted: false, proposal_id: report.proposal_id, reason: errorMessage(err) };
  }
}
