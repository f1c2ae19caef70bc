/**
 * Choosing which proposed edits survive the gate. The whole batch is tried first, so rules that only help
 * together are judged together. If it fails, the edit whose removal helps most is dropped, repeatedly, until
 * the rest beats the baseline strictly or no removal helps. An accepted set is then pruned of edits whose
 * removal does not hurt, so a harmful or useless edit never rides along with a useful one.
 */
import { REGRESSION_REASON } from '../core/rejected-edit.js';
import type { Edit, TaskRecord } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import type { GateMetricConfig } from '../replay/score.js';
import { batchScore, judgeCandidate } from './gate.js';
import { applyEdits } from './learned-block.js';
import type { GateTrial, RejectedEdit, ReplayPhase } from './gate-records.js';

/** The reason given to edits refused because the held-out score stayed the same. */
export const TIE_REASON = 'held-out score did not improve';

export interface SelectionInput {
  baseDoc: string;
  edits: Edit[];
  baselineResults: ReplayResult[];
  metric: GateMetricConfig;
  noRegression: boolean;
  replay: (phase: ReplayPhase, tasks: TaskRecord[], doc: string) => Promise<ReplayResult[]>;
}

export interface Selection {
  accepted: boolean;
  kept: Edit[];
  doc: string;
  score: number;
  rejected: RejectedEdit[];
  trials: GateTrial[];
}

export async function selectEdits(input: SelectionInput): Promise<Selection> {
  const { baseDoc, baselineResults, metric, noRegression } = input;
  const val = baselineResults.map((r) => r.task);
  const baseline = batchScore(baselineResults, metric);
  const trials: GateTrial[] = [];
  const rejected: RejectedEdit[] = [];
  const tryEdits = async (phase: ReplayPhase, edits: Edit[]) => {
    const results = await input.replay(phase, val, applyEdits(baseDoc, edits).doc);
    return { results, verdict: judgeCandidate(baselineResults, results, metric, noRegression) };
  };
  const recordTrial = (edits: Edit[], verdict: ReturnType<typeof judgeCandidate>): void => {
    trials.push({
      target: 'skill',
      edits,
      baseline_score: verdict.baseline,
      candidate_score: verdict.candidate,
      accepted: verdict.accepted,
      blocked_by_regression: verdict.blockedByRegression,
      task_deltas: verdict.deltas,
    });
  };

  const whole = await tryEdits('gate_trial', input.edits);
  recordTrial(input.edits, whole.verdict);
  let kept = input.edits;
  let score = whole.verdict.candidate;
  let accepted = whole.verdict.accepted;

  // Backward elimination: drop the edit whose removal helps most, until the rest passes or nothing helps.
  while (!accepted && kept.length > 1) {
    let best: { edit: Edit; score: number; verdict: ReturnType<typeof judgeCandidate> } | null = null;
    for (const edit of kept) {
      const trial = await tryEdits(
        'selection_trial',
        kept.filter((e) => e !== edit),
      );
      const better =
        best === null ||
        trial.verdict.candidate > best.score ||
        (trial.verdict.accepted && !best.verdict.accepted);
      if (better) best = { edit, score: trial.verdict.candidate, verdict: trial.verdict };
    }
    if (best === null || !(best.score > score || best.verdict.accepted)) break;
    const dropped = best.edit;
    rejected.push({ ...dropped, delta: score - best.score, reason: 'lowered the held-out score' });
    kept = kept.filter((e) => e !== dropped);
    score = best.score;
    accepted = best.verdict.accepted;
    recordTrial(kept, best.verdict);
  }

  if (!accepted) {
    const blocked = trials.at(-1)?.blocked_by_regression === true;
    const reason = blocked ? REGRESSION_REASON : TIE_REASON;
    rejected.push(...kept.map((e) => ({ ...e, delta: Math.min(0, score - baseline), reason })));
    return { accepted: false, kept: [], doc: baseDoc, score: baseline, rejected, trials };
  }

  // Leave-one-out: drop each edit whose removal keeps the score and still beats the baseline.
  for (const edit of [...kept]) {
    if (kept.length <= 1) break;
    const others = kept.filter((e) => e !== edit);
    const without = await tryEdits('prune_trial', others);
    if (without.verdict.accepted && without.verdict.candidate >= score) {
      rejected.push({
        ...edit,
        delta: score - without.verdict.candidate,
        reason: 'did not help on held-out tasks',
      });
      kept = others;
      score = without.verdict.candidate;
    }
  }
  return { accepted: true, kept, doc: applyEdits(baseDoc, kept).doc, score, rejected, trials };
}
