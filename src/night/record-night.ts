/**
 * A recording night's writes, derived from its outcome, in the order that keeps a kill safe: what the
 * night learned (`recordNight`), then its proposal (`stageNight`), then its finished row (`closeNight`).
 * Replays are stored as they happen (`night-train.ts`), so a failed or killed night keeps them.
 */
import { stageProposal, type Checkpoint } from '../../proposals/index.js';
import { tasksSessions } from '../core/task.js';
import type { Db } from '../store/db.js';
import { recordRejectedEdit, savePendingEdits, upsertTasks } from '../store/learning-repo.js';
import { finishNight } from '../store/nights-repo.js';
import { proposalLedger } from '../store/proposal-ledger-repo.js';
import { recordNightProposal } from '../store/proposals-repo.js';
import type { NightOutcome } from './night-outcome.js';
import type { NightReport } from './night-report.js';
import { renderReportMd } from './render-report.js';
import { toReport } from './to-report.js';
import { comparisonFileText } from './comparison-file.js';
import { ruleEvidence } from './rule-evidence.js';

/** The edits the gate rejected and those that tied (not after a budget stop), and the mined tasks. */
export function recordNight(db: Db, outcome: NightOutcome, nightId: number, now: number): void {
  const { project } = outcome.plan;
  if (!outcome.budgetStop) {
    // Reflection saw the night's tasks: its edits are traced to all their sessions.
    const sessions = tasksSessions(outcome.plan.tasks.tasks);
    for (const e of outcome.result.rejectedEdits)
      recordRejectedEdit(db, project, e, e.delta, nightId, now, sessions);
    savePendingEdits(db, project, outcome.result.pendingEdits, now, sessions);
  }
  upsertTasks(db, outcome.plan.tasks.clusters, now);
}

export interface StagedNight {
  dir: string;
  id: string;
  /** Nothing new was staged: the pending proposal `id` already proposes exactly this. */
  unchanged?: true;
}

/** The night's proposal and its row; null when there is nothing to stage (or the budget stopped it). */
export async function stageNight(
  db: Db,
  outcome: NightOutcome,
  at: { nightId: number; now: number; checkpoint?: Checkpoint; demo?: boolean },
): Promise<StagedNight | null> {
  const { plan, targets } = outcome;
  if (outcome.budgetStop || targets.length === 0) return null;
  const rules = ruleEvidence(plan.project, targets, plan.tasks.tasks, plan.tasks.lessons ?? []);
  const staged = await stageProposal({
    projectDir: plan.project,
    night: plan.night,
    now: at.now,
    targets,
    ...(plan.targets?.fanout || plan.targets?.packages
      ? { allowedRoots: [...(plan.targets.fanout?.roots ?? []), ...(plan.targets.packages?.roots ?? [])] }
      : {}),
    reportMd: renderReportMd(toReport(outcome, { stagingDir: '(this folder)' }), { demo: at.demo === true }),
    reportJson: toReport(outcome),
    ...(outcome.compared
      ? {
          // Mined tasks go to any backend a night runs on; a tasks file's only once reviewed.
          comparison: comparisonFileText({ ...outcome.compared, reviewed: plan.tasks.reviewed ?? true }),
        }
      : {}),
    ...(rules ? { rules: `${JSON.stringify(rules, null, 2)}\n` } : {}),
    nightId: at.nightId,
    ledger: proposalLedger(db, plan.project),
    ...(at.checkpoint ? { checkpoint: at.checkpoint } : {}),
  });
  // The row was reserved before the folder was published; a kill before this leaves the night unlinked
  // and the next command links it from the manifest.
  recordNightProposal(db, {
    id: staged.id,
    project: plan.project,
    nightId: at.nightId,
    dir: staged.dir,
    createdAt: at.now,
    targets: targets.map((t) => t.livePath),
  });
  return staged;
}

/** The night's row, completed with what its final report says. */
export function closeNight(db: Db, nightId: number, report: NightReport): void {
  finishNight(
    db,
    nightId,
    {
      nSessions: report.n_sessions,
      nTasks: report.n_tasks,
      baseline: report.baseline,
      candidate: report.candidate,
      accepted: report.accepted,
      gateAction: report.gate_action,
      stopped: report.stopped,
      calls: report.calls,
      tokens: report.tokens_used,
      inputTokens: report.spend?.input_tokens ?? 0,
      outputTokens: report.spend?.output_tokens ?? 0,
      costUsd: report.spend?.cost_usd ?? 0,
      cacheHits: report.spend?.cache_hits ?? 0,
    },
    report.ended_at,
  );
}
