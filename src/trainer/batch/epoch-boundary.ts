/**
 * The epoch boundary. Slow update: roll out the skill the epoch started with and the current one on the
 * same sample of train tasks; rules this epoch added are offered for removal when some task regressed,
 * and tasks that still fail under both are reflected on with the whole sample in view. The candidate goes
 * through the same gate as a step (re-measured on val; nothing is force-accepted). Meta note: a short
 * cross-epoch memory (what helped, what was refused, what still fails) fed to later reflection; it never
 * enters the skill, and every edit reflected with it is gated like any other.
 */
import { madeHeldOutWorse } from '../../core/rejected-edit.js';
import { shuffled } from '../../core/rng.js';
import type { Edit } from '../../core/task.js';
import { batchScore } from '../gate.js';
import { learnedRules } from '../learned-block.js';
import { proposeEdits } from '../propose.js';
import type { StepRecord } from '../step-record.js';
import { applyOutcome, emptyRecord, gateEdits, metricOf, skillHash, type StepContext } from './train-step.js';
import type { TrainState } from './train-state.js';

const META_NOTE_MAX = 600;

export interface Comparison {
  improved: string[];
  regressed: string[];
  persistent: string[];
  stable: string[];
}

export async function epochBoundary(
  ctx: StepContext,
  state: TrainState,
  epoch: number,
  step: number,
  lr: number,
): Promise<StepRecord> {
  const { config } = ctx;
  const record = emptyRecord(step, epoch, 'slow_update', lr);
  const sample = shuffled(ctx.data.train, config.seed + 2000 * epoch).slice(
    0,
    config.trainer.slow_update_samples,
  );
  record.batch = sample.map((s) => s.task.id);
  const before = await ctx.rollouts.run(sample, state.epoch_start_skill);
  const after = await ctx.rollouts.run(sample, state.current_skill);
  record.train_score = batchScore(after, metricOf(config));
  const cmp: Comparison = { improved: [], regressed: [], persistent: [], stable: [] };
  after.forEach((a, i) => {
    const passedBefore = (before[i]?.hard ?? 0) >= 1;
    const passedAfter = a.hard >= 1;
    const bucket = passedAfter
      ? passedBefore
        ? 'stable'
        : 'improved'
      : passedBefore
        ? 'regressed'
        : 'persistent';
    cmp[bucket].push(a.task.id);
  });
  record.n_failures = cmp.regressed.length + cmp.persistent.length;
  const startRules = new Set(learnedRules(state.epoch_start_skill));
  const epochRules = learnedRules(state.current_skill).filter((r) => !startRules.has(r));

  const edits: Edit[] = [];
  if (config.trainer.slow_update) {
    // Keep what improved; offer to drop this epoch's rules only when something regressed.
    if (cmp.regressed.length > 0)
      for (const rule of epochRules)
        edits.push({
          target: 'skill',
          op: 'delete',
          content: rule,
          anchor: rule,
          rationale: `slow update: epoch ${epoch} regressed ${cmp.regressed.join(', ')}`,
        });
    const persistent = after.filter((a) => cmp.persistent.includes(a.task.id));
    if (persistent.length > 0 && lr > 0) {
      const proposal = await proposeEdits({
        backend: ctx.backend,
        doc: state.current_skill,
        otherDoc: '',
        failures: persistent.map((r) => ({
          task: r.task,
          response: r.response,
          score: r,
          toolsCalled: r.toolsCalled,
        })),
        successes: [],
        minibatchSize: 0,
        reflectSuccesses: false,
        reflectBudget: config.trainer.learning_rate,
        select: lr,
        rejected: state.rejected,
        preferences: '',
        ...(config.trainer.meta_skill && state.meta_note ? { metaNote: state.meta_note } : {}),
        workers: config.trainer.workers,
        seed: config.seed + 2000 * epoch,
        usage: ctx.usage,
      });
      record.merge = proposal.merge;
      record.edits.proposed = proposal.proposed.length;
      record.edits.selected = proposal.selected.length;
      edits.push(...proposal.selected);
    }
  }
  if (edits.length > 0) {
    const currentVal = await ctx.rollouts.run(ctx.data.val, state.current_skill);
    record.val_before = batchScore(currentVal, metricOf(config));
    record.edits.applied = edits.length;
    const outcome = await gateEdits(ctx, state, edits, currentVal, false);
    Object.assign(record, outcome.record);
    record.accepted = outcome.accepted;
    record.edits.accepted = outcome.record.accepted_edits.length;
    // A slow update never leaves tied edits pending: the next epoch reflects afresh.
    applyOutcome(state, { ...outcome, tied: [] }, step);
    state.pending = [];
  } else record.gate = 'no_content';

  if (config.trainer.meta_skill) state.meta_note = metaNote(epoch, cmp, epochRules, state);
  state.epoch_start_skill = state.current_skill;
  record.skill_hash = skillHash(state.current_skill);
  return record;
}

/** A short, deterministic cross-epoch note. */
export function metaNote(epoch: number, cmp: Comparison, epochRules: string[], state: TrainState): string {
  const refused = state.rejected.filter(madeHeldOutWorse).map((r) => r.content);
  const parts = [
    `After epoch ${epoch} on ${cmp.improved.length + cmp.regressed.length + cmp.persistent.length + cmp.stable.length} sampled train tasks: ${cmp.improved.length} improved, ${cmp.regressed.length} regressed, ${cmp.persistent.length} still failing.`,
    epochRules.length > 0
      ? `Rules added this epoch: ${epochRules.join(' | ')}.`
      : 'No rule was added this epoch.',
    refused.length > 0
      ? `Edits that lowered the validation score (do not repeat): ${[...new Set(refused)].join(' | ')}.`
      : '',
    cmp.persistent.length > 0 ? `Still failing: ${cmp.persistent.join(', ')}.` : '',
  ];
  const note = parts.filter(Boolean).join(' ');
  return note.length > META_NOTE_MAX ? `${note.slice(0, META_NOTE_MAX - 1)}…` : note;
}
