/** The resumable state of a `train` run, written atomically after every finished step. */
import type { RejectedEditMemory } from '../../backends/types.js';
import type { Edit } from '../../core/task.js';

export interface TrainState {
  version: 1;
  /** Hash of the resolved config, the dataset's bytes and the initial skill: a resume must match it. */
  config_hash: string;
  /** The last finished global step (0 = only the baseline is measured). */
  step: number;
  /** The last epoch whose boundary (slow update, meta note) is done. */
  boundary_epoch: number;
  current_skill: string;
  /** Validation (gate) score of `current_skill`, measured (never carried over from another document). */
  current_score: number;
  best_skill: string;
  best_score: number;
  best_step: number;
  initial_skill: string;
  initial_val: number;
  /** The skill when the current epoch started (the slow update compares against it). */
  epoch_start_skill: string;
  /** Edits the gate refused, shown to reflection; those that lowered the score are never proposed again. */
  rejected: RejectedEditMemory[];
  /** Edits refused only for a tie: re-tested together with the next step's edits. */
  pending: Edit[];
  /** Finished epochs in a row that left the skill unchanged (`trainer.patience` stops the run). */
  stale_epochs: number;
  /** Cross-epoch note fed to reflection (meta-skill memory). */
  meta_note: string;
  /** How many history.jsonl records belong to the finished steps. */
  history_count: number;
  calls: number;
}
