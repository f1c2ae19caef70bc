/**
 * Choosing which proposed edits survive the gate. The whole batch is tried first, so rules that only help
 * together are judged together. If it fails, the edit whose removal helps most is dropped, repeatedly, until
 * the rest beats the baseline strictly or no removal helps. An accepted set is then pruned of edits whose
 * removal does not hurt, so a harmful or useless edit never rides along with a useful one.
 *
 * A leave-one-out trial replays its tasks in growing waves, those the edits changed first, and stops as
 * soon as even perfect answers on the rest could not keep the score: the edit then stays, as it would
 * after the whole replay, without the calls (a useful edit usually shows on its first task).
 */
import { REGRESSION_REASON } from '../core/rejected-edit.js';
import type { Edit, TaskRecord } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import type { GateMetricConfig } from '../replay/score.js';
import { batchScore, judgeCandidate } from './gate.js';
import { applyEdits } from './learned-block.js';
import type { GateTrial, RejectedEdit, ReplayPhase } from './gate-records.js';

/** The reason given to edits refused because the validation score stayed the same. */
export const TIE_REASON = 'validation score did not improve';

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
    rejected.push({ ...dropped, delta: score - best.score, reason: 'lowered the validation score' });
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
  const order = changedFirst(baselineResults, whole.results);
  for (const edit of [...kept]) {
    if (kept.length <= 1) break;
    const others = kept.filter((e) => e !== edit);
    const without = await pruneTrial(input, order, applyEdits(baseDoc, others).doc, score);
    if (without !== null && without.verdict.accepted && without.verdict.candidate >= score) {
      rejected.push({
        ...edit,
        delta: score - without.verdict.candidate,
        reason: 'did not help on validation tasks',
      });
      kept = others;
      score = without.verdict.candidate;
    }
  }
  return { accepted: true, kept, doc: applyEdits(baseDoc, kept).doc, score, rejected, trials };
}

/** The validation tasks, those whose answer the whole batch changed first (removing an edit shows there). */
function changedFirst(baseline: ReplayResult[], whole: ReplayResult[]): TaskRecord[] {
  const after = new Map(whole.map((r) => [r.task.id, r]));
  const changed = (r: ReplayResult): boolean => {
    const w = after.get(r.task.id);
    return w === undefined || w.hard !== r.hard || w.soft !== r.soft || w.response !== r.response;
  };
  return [...baseline.filter(changed), ...baseline.filter((r) => !changed(r))].map((r) => r.task);
}

/**
 * Replay `doc` on the validation tasks in waves of 1, 2, 4… and stop (null) once the score could not reach
 * `score` even if every task left scored 1 (every judge scores within 0..1, and the gate's metric is a
 * weighted mean of the two). A task the judge leaves out drops out of the mean, which only removes a 1.
 */
async function pruneTrial(
  input: SelectionInput,
  order: TaskRecord[],
  doc: string,
  score: number,
): Promise<{ verdict: ReturnType<typeof judgeCandidate> } | null> {
  const done = new Map<string, ReplayResult>();
  let wave = 1;
  for (let start = 0; start < order.length; start += wave, wave *= 2) {
    const batch = order.slice(start, start + wave);
    for (const r of await input.replay('prune_trial', batch, doc)) done.set(r.task.id, r);
    if (start + batch.length >= order.length) break;
    // Tasks the baseline left unjudged are out of both means (judgeCandidate), so out of the bound too.
    const optimistic = input.baselineResults
      .filter((b) => b.unjudged !== true)
      .map((b) => done.get(b.task.id) ?? { ...PERFECT, task: b.task, response: '', toolsCalled: [] });
    if (batchScore(optimistic, input.metric) < score) return null;
  }
  const results = input.baselineResults.flatMap((r) => done.get(r.task.id) ?? []);
  return { verdict: judgeCandidate(input.baselineResults, results, input.metric, input.noRegression) };
}

const PERFECT = { hard: 1, soft: 1, rationale: 'not replayed', latencyMs: 0, tokens: 0 };
