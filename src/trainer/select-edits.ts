/**
 * Choosing which proposed edits survive the gate. The whole batch is tried first, so rules that only help
 * together are judged together. If it fails, the edit whose removal helps most is dropped, repeatedly, until
 * the rest beats the baseline strictly or no removal helps. An accepted set is then pruned of edits whose
 * removal does not hurt, so a harmful or useless edit never rides along with a useful one.
 *
 * Pruning replays only what the candidate's answers leave open (`edit-checks.ts`). An edit that alone
 * states a check the candidate now meets on an improved validation task fixed that task: removing it
 * would undo the fix, so it stays untried (when every edit fixes its own tasks, no trial runs). An
 * edit that alone states a check the baseline failed and the candidate meets (its own requirement:
 * "under 1,200 characters" for `max_chars`) is never dropped for a tie while the learned block is
 * within its budget: a vaguer rule that happened to pass the same answers must not push out the
 * precise one; it goes only when removing it raises the score. A check met where another check of the
 * same task broke counts for neither. Edits stay untried only while no validation task regressed;
 * otherwise every edit gets its trial.
 *
 * A leave-one-out trial replays its tasks in growing waves, those the edits changed first, and stops as
 * soon as even perfect answers on the rest could not keep the score: the edit then stays, as it would
 * after the whole replay, without the calls (a useful edit usually shows on its first task).
 *
 * In a night that waits for answers (handoff, batch) each invocation replays the selection from the
 * start with the answers given so far, and what waits does not stop what comes after it: the trials
 * of an elimination round are queued together, a trial's waves all at once (the bound needs their
 * answers), and a leave-one-out trial that waits counts as keeping its edit, so the next trials are
 * queued too. Once everything is answered, every decision is the one an interactive night makes.
 */
import { REGRESSION_REASON } from '../core/rejected-edit.js';
import type { Check, Edit, TaskRecord } from '../core/task.js';
import type { ReplayResult } from '../replay/replay.js';
import type { GateMetricConfig } from '../replay/score.js';
import { batchScore, judgeCandidate, type GateVerdict } from './gate.js';
import type { DocEditor } from '../core/doc-editor.js';
import { learnedBlockEditor } from './learned-block.js';
import { WaitList } from '../core/waits.js';
import type { GateTrial, RejectedEdit, ReplayPhase } from './gate-records.js';
import { failedChecks, statesCheck } from './edit-checks.js';

/** The reason given to edits refused because the validation score stayed the same. */
export const TIE_REASON = 'validation score did not improve';

/**
 * The learned block's size (characters of its rules) up to which an edit stating a failed check's own
 * requirement is not dropped for a tie: about a thousand tokens, which every attempt pays for.
 */
export const STATED_RULES_BUDGET_CHARS = 4000;

export interface SelectionInput {
  baseDoc: string;
  edits: Edit[];
  baselineResults: ReplayResult[];
  metric: GateMetricConfig;
  noRegression: boolean;
  replay: (phase: ReplayPhase, tasks: TaskRecord[], doc: string) => Promise<ReplayResult[]>;
  /** Prune the accepted set (default true); a leaked holdout accepts nothing, so pruning decides nothing. */
  prune?: boolean;
  /** How edits change the document (default: the managed skill's learned block). */
  editor?: DocEditor;
}

/** An edit pruning kept without replaying: it fixed its own validation tasks, or states a failed check. */
export interface UntriedEdit {
  edit: Edit;
  why: 'fixes' | 'states';
  /** The checks only this edit states: newly met on validation tasks ('fixes'), or failed on the baseline. */
  checks: Check[];
}

export interface Selection {
  accepted: boolean;
  kept: Edit[];
  doc: string;
  score: number;
  rejected: RejectedEdit[];
  trials: GateTrial[];
  untried: UntriedEdit[];
}

export async function selectEdits(input: SelectionInput): Promise<Selection> {
  const { baseDoc, baselineResults, metric, noRegression } = input;
  const editor = input.editor ?? learnedBlockEditor;
  const val = baselineResults.map((r) => r.task);
  const baseline = batchScore(baselineResults, metric);
  const trials: GateTrial[] = [];
  const rejected: RejectedEdit[] = [];
  const tryEdits = async (phase: ReplayPhase, edits: Edit[]) => {
    const results = await input.replay(phase, val, editor.apply(baseDoc, edits).doc);
    return { results, verdict: judgeCandidate(baselineResults, results, metric, noRegression) };
  };
  const recordTrial = (edits: Edit[], verdict: GateVerdict): void => {
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
  // The answers of the set as it stands, and the gate's verdict on them.
  let current = { results: whole.results, verdict: whole.verdict };

  // Backward elimination: drop the edit whose removal helps most, until the rest passes or nothing helps.
  while (!accepted && kept.length > 1) {
    let best: { edit: Edit; score: number; verdict: GateVerdict; results: ReplayResult[] } | null = null;
    const round = new WaitList();
    for (const edit of kept) {
      const trial = await round.pass(
        tryEdits(
          'selection_trial',
          kept.filter((e) => e !== edit),
        ),
      );
      if (!trial) continue;
      const better =
        best === null ||
        trial.verdict.candidate > best.score ||
        (trial.verdict.accepted && !best.verdict.accepted);
      if (better) best = { edit, score: trial.verdict.candidate, ...trial };
    }
    round.rethrow();
    if (best === null || !(best.score > score || best.verdict.accepted)) break;
    const dropped = best.edit;
    rejected.push({ ...dropped, delta: score - best.score, reason: 'lowered the validation score' });
    kept = kept.filter((e) => e !== dropped);
    score = best.score;
    accepted = best.verdict.accepted;
    current = { results: best.results, verdict: best.verdict };
    recordTrial(kept, best.verdict);
  }

  if (!accepted) {
    const blocked = trials.at(-1)?.blocked_by_regression === true;
    const reason = blocked ? REGRESSION_REASON : TIE_REASON;
    rejected.push(...kept.map((e) => ({ ...e, delta: Math.min(0, score - baseline), reason })));
    return { accepted: false, kept: [], doc: baseDoc, score: baseline, rejected, trials, untried: [] };
  }

  // Leave-one-out: drop each edit whose removal keeps the score and still beats the baseline.
  const untried: UntriedEdit[] = [];
  const order = changedFirst(baselineResults, current.results);
  const pruning = new WaitList();
  for (const edit of [...kept]) {
    if (kept.length <= 1 || input.prune === false) break;
    const regressed = current.verdict.deltas.some((d) => d.status === 'regressed');
    const met = newlyMet(baselineResults, current);
    const stated = withinBudget(editor, baseDoc, kept) ? soleStated(edit, kept, met.anywhere) : [];
    const fixed = soleStated(edit, kept, met.onImproved);
    if (!regressed && (fixed.length > 0 || stated.length > 0)) {
      untried.push(
        fixed.length > 0 ? { edit, why: 'fixes', checks: fixed } : { edit, why: 'states', checks: stated },
      );
      continue;
    }
    const others = kept.filter((e) => e !== edit);
    // Waiting for answers, the edit stays for now (undefined), as it does when its trial stops early (null).
    const without = await pruning.pass(pruneTrial(input, order, editor.apply(baseDoc, others).doc, score));
    if (!without || !without.verdict.accepted) continue;
    // A requirement-stating edit goes only when removing it raises the score (it hurts), not for a tie.
    const drop = stated.length > 0 ? without.verdict.candidate > score : without.verdict.candidate >= score;
    if (!drop) continue;
    rejected.push({
      ...edit,
      delta: score - without.verdict.candidate,
      reason: 'did not help on validation tasks',
    });
    kept = others;
    score = without.verdict.candidate;
    current = without;
  }
  pruning.rethrow();
  return { accepted: true, kept, doc: editor.apply(baseDoc, kept).doc, score, rejected, trials, untried };
}

/** The checks among `checks` that `edit` states and no other kept edit does. */
function soleStated(edit: Edit, kept: readonly Edit[], checks: readonly Check[]): Check[] {
  return checks.filter(
    (c) => statesCheck(edit, c) && kept.every((other) => other === edit || !statesCheck(other, c)),
  );
}

/**
 * Checks the baseline failed on a validation task and the candidate meets there, on a task where it
 * fails no check it met before: on any such task, and on those whose score the candidate improved.
 */
function newlyMet(
  baseline: readonly ReplayResult[],
  candidate: { results: ReplayResult[]; verdict: GateVerdict },
): { anywhere: Check[]; onImproved: Check[] } {
  const improved = new Set(
    candidate.verdict.deltas.filter((d) => d.status === 'improved').map((d) => d.task_id),
  );
  const after = new Map(candidate.results.map((r) => [r.task.id, r]));
  const anywhere: Check[] = [];
  const onImproved: Check[] = [];
  for (const before of baseline) {
    const now = after.get(before.task.id);
    if (now === undefined) continue;
    // One task's checks are the same objects on both sides. A check met at another's expense (the
    // task's own checks contradict) is no fix: the trade shows only in a trial.
    const failing = new Set(failedChecks(now));
    const failedBefore = new Set(failedChecks(before));
    if ([...failing].some((c) => !failedBefore.has(c))) continue;
    const met = [...failedBefore].filter((c) => !failing.has(c));
    anywhere.push(...met);
    if (improved.has(before.task.id)) onImproved.push(...met);
  }
  return { anywhere, onImproved };
}

const withinBudget = (editor: DocEditor, baseDoc: string, kept: Edit[]): boolean =>
  editor.rules(editor.apply(baseDoc, kept).doc).join('\n').length <= STATED_RULES_BUDGET_CHARS;

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
): Promise<{ verdict: GateVerdict; results: ReplayResult[] } | null> {
  const done = new Map<string, ReplayResult>();
  const waves = new WaitList();
  let wave = 1;
  for (let start = 0; start < order.length; start += wave, wave *= 2) {
    const batch = order.slice(start, start + wave);
    for (const r of (await waves.pass(input.replay('prune_trial', batch, doc))) ?? []) done.set(r.task.id, r);
    if (start + batch.length >= order.length) break;
    // The bound needs every answer so far: while some wait, the next wave is queued with them.
    if (waves.waiting) continue;
    // Tasks the baseline left unjudged are out of both means (judgeCandidate), so out of the bound too.
    const optimistic = input.baselineResults
      .filter((b) => b.unjudged !== true)
      .map((b) => done.get(b.task.id) ?? { ...PERFECT, task: b.task, response: '', toolsCalled: [] });
    if (batchScore(optimistic, input.metric) < score) return null;
  }
  waves.rethrow();
  const results = input.baselineResults.flatMap((r) => done.get(r.task.id) ?? []);
  return {
    verdict: judgeCandidate(input.baselineResults, results, input.metric, input.noRegression),
    results,
  };
}

const PERFECT = { hard: 1, soft: 1, rationale: 'not replayed', latencyMs: 0, tokens: 0 };
