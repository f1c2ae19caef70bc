/**
 * One training step on labelled data: roll out a batch with the current skill → reflect on minibatches →
 * aggregate → select the step's learning rate of edits → apply (patch) or rewrite the learned rules →
 * gate on the val split (selectEdits: whole batch, backward elimination, leave-one-out) → accept or roll
 * back. The same stages serve a night's one step (src/night/night-step.ts).
 */
import type { Backend } from '../../backends/types.js';
import type { Usage } from '../../core/usage.js';
import { addUsage } from '../../core/usage.js';
import { sha256Hex } from '../../core/hash.js';
import { madeHeldOutWorse, REGRESSION_REASON } from '../../core/rejected-edit.js';
import type { Edit } from '../../core/task.js';
import type { ReplayResult } from '../../replay/replay.js';
import { batchScore, judgeCandidate } from '../gate.js';
import { applyEdits, learnedRules, withRules } from '../learned-block.js';
import { proposeEdits, type Proposal } from '../propose.js';
import { selectEdits, TIE_REASON } from '../select-edits.js';
import { isUnusableReply } from '../unusable-reply.js';
import type { StepRecord } from '../step-record.js';
import type { Dataset, DatasetItem } from './dataset.js';
import type { Rollouts } from './rollout.js';
import type { TrainConfig } from './train-config.js';
import type { TrainState } from './train-state.js';

export interface StepContext {
  config: TrainConfig;
  backend: Backend;
  rollouts: Rollouts;
  data: Dataset;
  usage: Usage;
}

export const metricOf = (c: TrainConfig) => ({ metric: c.gate.metric, mixedWeight: c.gate.mixed_weight });
export const skillHash = (doc: string): string => sha256Hex(doc).slice(0, 12);

const plain = ({ target, op, content, anchor, rationale }: Edit): Edit => ({
  target,
  op,
  content,
  anchor,
  rationale,
});

export function emptyRecord(step: number, epoch: number, kind: StepRecord['kind'], lr: number): StepRecord {
  return {
    step,
    epoch,
    kind,
    lr,
    batch: [],
    train_score: null,
    n_failures: 0,
    edits: { proposed: 0, selected: 0, applied: 0, unmatched: 0, accepted: 0 },
    merge: 'none',
    val_before: null,
    val_after: null,
    gate: 'skip_no_edits',
    accepted: false,
    accepted_edits: [],
    rejected_edits: [],
    unmatched_edits: [],
    task_deltas: [],
    skill_hash: '',
  };
}

/** Rewrite mode: the backend rewrites the learned rules; null when it cannot (no method, unusable reply). */
async function rewriteRules(
  ctx: StepContext,
  doc: string,
  suggestions: Edit[],
  metaNote: string,
): Promise<string | null> {
  if (!ctx.backend.rewrite) return null;
  try {
    const reply = await ctx.backend.rewrite({
      doc,
      rules: learnedRules(doc),
      suggestions,
      ...(metaNote ? { metaNote } : {}),
    });
    addUsage(ctx.usage, reply.usage);
    const rules = reply.rules;
    if (!Array.isArray(rules) || rules.length === 0 || !rules.every((r) => typeof r === 'string'))
      return null;
    return withRules(doc, rules);
  } catch (err) {
    // Only an unusable reply falls back to the patch; a spent budget or an auth failure stops the night.
    if (!isUnusableReply(err)) throw err;
    return null;
  }
}

export interface GateOutcome {
  accepted: boolean;
  doc: string;
  score: number;
  record: Pick<StepRecord, 'gate' | 'val_after' | 'accepted_edits' | 'rejected_edits' | 'task_deltas'>;
  /** Refused only for a tie. */
  tied: Edit[];
}

/**
 * Gate a set of edits on top of `state.current_skill`: patch mode goes through selectEdits (no free
 * riders); rewrite mode judges the backend's rewritten document as one candidate (and falls back to the
 * patch when the backend has no usable rewrite).
 */
export async function gateEdits(
  ctx: StepContext,
  state: TrainState,
  edits: Edit[],
  currentVal: ReplayResult[],
  rewrite: boolean,
): Promise<GateOutcome> {
  const metric = metricOf(ctx.config);
  const noRegression = ctx.config.gate.no_regression;
  const val = (doc: string): Promise<ReplayResult[]> => ctx.rollouts.run(ctx.data.val, doc);
  // Without a usable backend rewrite, rewrite mode falls back to the patch and its selection below.
  const rewritten = rewrite ? await rewriteRules(ctx, state.current_skill, edits, state.meta_note) : null;
  if (rewritten !== null) {
    const doc = rewritten;
    const verdict = judgeCandidate(currentVal, await val(doc), metric, noRegression);
    const lowered = verdict.candidate < verdict.baseline;
    // When the rewrite lowered the score, the rewrite is to blame, not the suggestions: they are
    // reported but not banned (delta 0), and may be suggested again.
    const reason = verdict.blockedByRegression
      ? REGRESSION_REASON
      : lowered
        ? 'the rewrite built on it lowered the validation score'
        : TIE_REASON;
    return {
      accepted: verdict.accepted,
      doc: verdict.accepted ? doc : state.current_skill,
      score: verdict.accepted ? verdict.candidate : verdict.baseline,
      record: {
        gate: verdict.accepted ? 'accept_new_best' : 'reject',
        val_after: verdict.candidate,
        accepted_edits: verdict.accepted ? edits.map(plain) : [],
        rejected_edits: verdict.accepted ? [] : edits.map((e) => ({ ...plain(e), delta: 0, reason })),
        task_deltas: verdict.deltas,
      },
      tied: !verdict.accepted && reason === TIE_REASON ? edits.map(plain) : [],
    };
  }
  const selection = await selectEdits({
    baseDoc: state.current_skill,
    edits,
    baselineResults: currentVal,
    metric,
    noRegression,
    replay: (_phase, _tasks, doc) => val(doc),
  });
  const decided = selection.accepted ? selection.trials.at(-1) : selection.trials[0];
  return {
    accepted: selection.accepted,
    doc: selection.doc,
    score: selection.score,
    record: {
      gate: selection.accepted ? 'accept_new_best' : 'reject',
      val_after: selection.accepted ? selection.score : (decided?.candidate_score ?? null),
      accepted_edits: selection.kept.map(plain),
      rejected_edits: selection.rejected.map((e) => ({ ...plain(e), delta: e.delta, reason: e.reason })),
      task_deltas: decided?.task_deltas ?? [],
    },
    tied: selection.accepted
      ? []
      : selection.rejected.filter((e) => e.delta === 0 && e.reason === TIE_REASON).map(plain),
  };
}

/** Fold a gate outcome into the state: accept, remember refused edits, keep tied ones pending. */
export function applyOutcome(state: TrainState, outcome: GateOutcome, step: number): void {
  // One buffer entry per edit; an edit that ever made validation worse keeps that verdict and its worst delta.
  for (const e of outcome.record.rejected_edits) {
    const seen = state.rejected.find(
      (r) => r.target === e.target && r.op === e.op && r.content === e.content,
    );
    const refusal = { delta: e.delta, reason: e.reason, at: step };
    if (!seen) state.rejected.push({ target: e.target, op: e.op, content: e.content, ...refusal });
    else {
      if (e.delta < seen.delta || !madeHeldOutWorse(seen)) seen.reason = e.reason;
      seen.delta = Math.min(seen.delta, e.delta);
      seen.at = step;
    }
  }
  if (outcome.accepted) {
    state.current_skill = outcome.doc;
    state.current_score = outcome.score;
    state.pending = [];
    if (outcome.score > state.best_score) {
      state.best_skill = outcome.doc;
      state.best_score = outcome.score;
      state.best_step = step;
    }
  } else state.pending = outcome.tied;
}

export async function trainStep(
  ctx: StepContext,
  state: TrainState,
  batch: DatasetItem[],
  step: number,
  epoch: number,
  lr: number,
): Promise<StepRecord> {
  const { config } = ctx;
  const record = emptyRecord(step, epoch, 'step', lr);
  record.batch = batch.map((b) => b.task.id);
  const currentVal = await ctx.rollouts.run(ctx.data.val, state.current_skill);
  record.val_before = batchScore(currentVal, metricOf(config));
  // Pending (tied) edits are re-tested with the new ones, so reflection sees the skill with them applied;
  // the learning rate bounds only the new edits.
  const pending = applyEdits(state.current_skill, state.pending);
  const trainResults = await ctx.rollouts.run(batch, pending.doc);
  record.train_score = batchScore(trainResults, metricOf(config));
  const failures = trainResults.filter((r) => r.hard < 1);
  record.n_failures = failures.length;
  const finish = (): StepRecord => {
    record.skill_hash = skillHash(state.current_skill);
    return record;
  };

  let proposal: Proposal | null = null;
  if (lr > 0 && (failures.length > 0 || config.trainer.reflect_successes)) {
    proposal = await proposeEdits({
      backend: ctx.backend,
      doc: pending.doc,
      otherDoc: '',
      failures: failures.map((r) => ({
        task: r.task,
        response: r.response,
        score: r,
        toolsCalled: r.toolsCalled,
      })),
      successes: trainResults
        .filter((r) => r.hard >= 1)
        .map((r) => ({ task: r.task, response: r.response, score: r, toolsCalled: r.toolsCalled })),
      minibatchSize: config.trainer.minibatch_size,
      reflectSuccesses: config.trainer.reflect_successes,
      reflectBudget: config.trainer.learning_rate,
      select: lr,
      rejected: state.rejected,
      pending: state.pending,
      preferences: '',
      ...(config.trainer.meta_skill && state.meta_note ? { metaNote: state.meta_note } : {}),
      workers: config.trainer.workers,
      seed: config.seed + step,
      usage: ctx.usage,
    });
    record.merge = proposal.merge;
    record.edits.proposed = proposal.proposed.length;
    record.edits.selected = proposal.selected.length;
  }
  const fresh = applyEdits(pending.doc, proposal?.selected ?? []);
  record.unmatched_edits = fresh.unmatched.map(plain);
  record.edits.unmatched = fresh.unmatched.length;
  const candidates = [...pending.applied, ...fresh.applied];
  record.edits.applied = candidates.length;
  if (candidates.length === 0) {
    record.gate = 'skip_no_edits';
    return finish();
  }
  const outcome = await gateEdits(
    ctx,
    state,
    candidates,
    currentVal,
    config.trainer.update_mode === 'rewrite',
  );
  Object.assign(record, outcome.record);
  record.accepted = outcome.accepted;
  record.edits.accepted = outcome.record.accepted_edits.length;
  applyOutcome(state, outcome, step);
  return finish();
}
