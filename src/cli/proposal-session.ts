/**
 * What every command that opens a project's proposals does first: finish or roll back an adoption
 * that was killed midway, then bring the store's mirror of proposal statuses in line with the folders.
 */
import { listProposals, recoverProject, type GitOutcome, type RecoveryNote } from '../../proposals/index.js';
import { EXIT, SkilloptError } from '../core/errors.js';
import { displayText } from './output.js';
import type { Db } from '../store/db.js';
import { syncProposals } from '../store/proposals-repo.js';
import type { Logger } from '../core/logger.js';

export async function recoverAndSync(db: Db, project: string, logger: Logger): Promise<RecoveryNote[]> {
  const notes = await recoverProject(project);
  for (const n of notes) {
    logger.warn(
      `an interrupted ${n.kind} of proposal ${n.proposalId} was ${n.outcome === 'finished' ? 'finished' : 'rolled back'} (${n.paths.join(', ')})`,
    );
  }
  await syncMirror(db, project);
  return notes;
}

export async function syncMirror(db: Db, project: string): Promise<void> {
  syncProposals(db, project, (await listProposals(project)).proposals);
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
