/** One line of `history.jsonl` (and of a night report's `steps`): what a step tried and what the gate decided. */
import type { Edit } from '../core/task.js';
import type { TaskDelta } from './gate.js';

export interface StepRecord {
  step: number;
  epoch: number;
  /** `step` (a training step), `slow_update` (the epoch boundary) or `night` (a night is one step). */
  kind: 'step' | 'slow_update' | 'night';
  /** The learning rate of the step: the most new edits it could apply. */
  lr: number;
  /** Ids of the train tasks the step rolled out. */
  batch: string[];
  /** Gate-metric score on the batch of the skill reflection saw (current + pending edits; null when not rolled out). */
  train_score: number | null;
  n_failures: number;
  edits: { proposed: number; selected: number; applied: number; unmatched: number; accepted: number };
  merge: 'backend' | 'fallback' | 'none';
  /** Validation score of the current skill, and of the candidate the gate decided on. */
  val_before: number | null;
  val_after: number | null;
  gate: string;
  accepted: boolean;
  accepted_edits: Edit[];
  rejected_edits: Array<Edit & { delta: number; reason: string }>;
  unmatched_edits: Edit[];
  /** Per validation task: before and after, for the candidate the gate decided on. */
  task_deltas: TaskDelta[];
  /** Short hash of the skill after the step. */
  skill_hash: string;
}
