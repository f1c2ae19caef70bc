/** `run --branch [name]`: checked before the night, then the staged proposal committed on a new branch. */
import path from 'node:path';
import {
  commitProposalBranch,
  planProposalBranch,
  type BranchOutcome,
  type BranchPlan,
} from '../../proposals/git-branch.js';
import { proposalsRootOf } from '../../proposals/index.js';
import { systemTempDir, type Env } from '../config/paths.js';
import type { ProposalLedger } from '../core/proposal-ledger.js';
import type { NightReport } from '../night/night-report.js';
import { say } from './output.js';

export type NightBranch = BranchOutcome | { status: 'not_staged'; message: string };

/** `true` is the flag without a name: the default name comes from the proposal's id. */
export const planNightBranch = (project: string, flag: string | true, env: Env): Promise<BranchPlan> =>
  planProposalBranch(project, flag === true ? null : flag, { env, tempDir: systemTempDir() });

export async function nightBranch(
  plan: BranchPlan,
  report: Pick<NightReport, 'staging_dir' | 'project'> & { proposal_id?: string },
  ledger: ProposalLedger,
): Promise<NightBranch> {
  if (!report.proposal_id) {
    return { status: 'not_staged', message: 'the night staged no proposal, so no branch was created' };
  }
  // An unchanged night names the pending proposal it would have staged again (no staging_dir).
  const dir = report.staging_dir || path.join(proposalsRootOf(report.project), report.proposal_id);
  return commitProposalBranch(plan, { dir, id: report.proposal_id, ledger });
}

export function renderNightBranch(branch: NightBranch): void {
  if (branch.status === 'created') {
    say(
      `[sleep] branch ${branch.branch}: one commit (${branch.commit.slice(0, 12)}) on ${branch.base.slice(0, 12)} with ${branch.paths.join(', ')}; your working tree, index and current branch are unchanged`,
    );
    if (branch.leftOut.length > 0) say(`[sleep] branch: left out ${branch.leftOut.join(', ')}`);
    say(`[sleep] share it for review: git push -u origin ${branch.branch}`);
  } else {
    say(`[sleep] branch: none created: ${branch.message}`);
  }
}
