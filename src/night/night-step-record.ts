/** A night seen as one trainer step: the record `report.json` carries in `steps`, like a `history.jsonl` line. */
import { sha256Hex } from '../core/hash.js';
import type { NightStepResult } from './night-step.js';
import type { TaskDelta } from '../trainer/gate.js';
import type { StepRecord } from '../trainer/step-record.js';

/** Per validation task deltas of the candidate the gate decided on (the kept set, else the whole batch). */
export function decisiveDeltas(epoch: NightStepResult): TaskDelta[] {
  const decisive = epoch.accepted ? epoch.trials.at(-1) : epoch.trials[0];
  return decisive?.task_deltas ?? [];
}

export function nightStepRecord(epoch: NightStepResult, night: number, editBudget: number): StepRecord {
  const tried = epoch.trials[0]?.edits.length ?? 0;
  return {
    step: night,
    epoch: night,
    kind: 'night',
    lr: editBudget,
    batch: [],
    train_score: null,
    n_failures: 0,
    edits: {
      proposed: tried + epoch.unmatchedEdits.length,
      selected: tried + epoch.unmatchedEdits.length,
      applied: tried,
      unmatched: epoch.unmatchedEdits.length,
      accepted: epoch.edits.length,
    },
    merge: 'none',
    val_before: Number.isFinite(epoch.baseline) ? epoch.baseline : null,
    val_after: Number.isFinite(epoch.candidate) ? epoch.candidate : null,
    gate: epoch.trials.length === 0 ? 'skip_no_edits' : epoch.gateAction,
    accepted: epoch.accepted,
    accepted_edits: epoch.edits,
    rejected_edits: epoch.rejectedEdits,
    unmatched_edits: epoch.unmatchedEdits,
    task_deltas: decisiveDeltas(epoch),
    skill_hash: sha256Hex(epoch.skill).slice(0, 12),
  };
}
