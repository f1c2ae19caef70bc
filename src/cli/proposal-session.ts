/**
 * What every command that opens a project's proposals does first: finish or roll back an adoption
 * that was killed midway, bring the store's mirror of proposal statuses in line with the folders, and
 * say in one line which folders the store never staged (they are ignored).
 */
import {
  listProposals,
  proposalsRootOf,
  recoverProject,
  type GitOutcome,
  type RecoveryNote,
  type SkippedProposal,
} from '../../proposals/index.js';
import { EXIT, SkilloptError } from '../core/errors.js';
import type { ProposalLedger } from '../core/proposal-ledger.js';
import { displayText } from './output.js';
import type { Db } from '../store/db.js';
import { proposalLedger } from '../store/proposal-ledger-repo.js';
import { syncProposals } from '../store/proposals-repo.js';
import type { Logger } from '../core/logger.js';

/** The store's record of `project`'s proposals, which every proposal call checks the folders against. */
export const ledgerOf = (db: Db, project: string): ProposalLedger => proposalLedger(db, project);

export async function recoverAndSync(db: Db, project: string, logger: Logger): Promise<RecoveryNote[]> {
  const ledger = ledgerOf(db, project);
  const notes = await recoverProject(project, ledger);
  for (const n of notes) logger.warn(recoveryLine(n));
  const { proposals, foreign } = await listProposals(project, ledger);
  syncProposals(db, project, proposals);
  if (foreign.length > 0) logger.warn(foreignLine(project, foreign));
  return notes;
}

function recoveryLine(n: RecoveryNote): string {
  if (n.outcome === 'left_alone') {
    return `proposal ${n.proposalId} holds a .transaction.json this machine's store did not record; it was left alone (delete it if no adopt or revert of yours was interrupted)`;
  }
  return `an interrupted ${n.kind} of proposal ${n.proposalId} was ${n.outcome === 'finished' ? 'finished' : 'rolled back'} (${n.paths.join(', ')})`;
}

const SHOWN_FOREIGN = 5;

/** One line for every folder the store never staged. */
export function foreignLine(project: string, foreign: readonly SkippedProposal[]): string {
  const names = foreign.slice(0, SHOWN_FOREIGN).map((f) => displayText(f.name));
  if (foreign.length > SHOWN_FOREIGN) names.push(`and ${foreign.length - SHOWN_FOREIGN} more`);
  const one = foreign.length === 1;
  return `${one ? 'a folder' : `${foreign.length} folders`} in ${proposalsRootOf(project)} ${one ? 'was' : 'were'} not staged by this machine and ${one ? 'is' : 'are'} ignored (from the repository? delete ${one ? 'it' : 'them'} if not yours): ${names.join(', ')}`;
}

export async function syncMirror(db: Db, project: string): Promise<void> {
  syncProposals(db, project, (await listProposals(project, ledgerOf(db, project))).proposals);
}

/**
 * `adopt`/`revert --commit` whose commit failed after the files were written: not a success (exit 1),
 * and the message says what is on disk and what to do.
 */
export function commitFailure(verb: 'adopt' | 'revert', id: string, git: GitOutcome | undefined): void {
  if (git?.status !== 'failed') return;
  const undo =
    verb === 'adopt'
      ? `commit them yourself, or undo with \`skillopt-sleep revert ${id}\``
      : 'commit them yourself';
  throw new SkilloptError(
    `${verb === 'adopt' ? 'adopted' : 'reverted'} ${id}, but ${displayText(git.message)}; ${undo}`,
    EXIT.runtime,
    'commit_failed',
  );
}
