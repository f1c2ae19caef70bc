/**
 * What every command that opens a project's proposals does first: finish or roll back an adoption
 * that was killed midway, then bring the store's mirror of proposal statuses in line with the folders.
 */
import {
  listProposals,
  recoverProject,
  type Checkpoint,
  type GitOutcome,
  type RecoveryNote,
} from '../../proposals/index.js';
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
 * TEST-ONLY hook: with SKILLOPT_SLEEP_TEST_CRASH_AT=<n>, an adopt or revert kills itself with SIGKILL
 * at step n of its transaction (with SKILLOPT_SLEEP_TEST_CRASH_STAGE_AT=<n>, `run` at step n of staging
 * its proposal), so the crash tests can show recovery works from every point.
 */
export function testCrashHook(
  env: Readonly<Record<string, string | undefined>>,
  variable:
    'SKILLOPT_SLEEP_TEST_CRASH_AT' | 'SKILLOPT_SLEEP_TEST_CRASH_STAGE_AT' = 'SKILLOPT_SLEEP_TEST_CRASH_AT',
): Checkpoint | undefined {
  const at = Number(env[variable]);
  if (!Number.isSafeInteger(at) || at <= 0) return undefined;
  return (step) => {
    if (step === at) process.kill(process.pid, 'SIGKILL');
  };
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
