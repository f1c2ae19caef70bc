/**
 * A night's training passes as entries of one registry (`index.ts`). A pass says when it applies to a
 * plan, trains through the context (which replays, stores the replays and reports progress), and
 * returns its outcome: its step, the documents it would stage, its report section and notes.
 */
import type { StageTarget } from '../../../proposals/index.js';
import type { DocEditor } from '../../core/doc-editor.js';
import type { Edit, EditTarget, TaskRecord } from '../../core/task.js';
import type { Usage } from '../../core/usage.js';
import type { NightPlan, NightTargets } from '../night-plan.js';
import type { NightReport } from '../night-report.js';
import type { NightStepResult } from '../night-step.js';

/** A plan that trains: its targets are known. */
export type TrainingPlan = NightPlan & { targets: NightTargets };

export interface TrainRequest {
  /** The document trained, and the other one (read-only, in its place in the replays). */
  target: EditTarget;
  doc: string;
  other: string;
  editBudget: number;
  /** Default: the tasks the managed skill trains on (all of them, or those fan-out left it). */
  tasks?: TaskRecord[];
  /** How edits change `doc` (default: its learned block). */
  editor?: DocEditor;
  /** Tied edits of earlier nights to re-test; default: the plan's edits of this target. */
  pending?: Edit[];
}

export interface PassContext {
  plan: TrainingPlan;
  /** The outcomes of the passes before this one, in registry order. */
  before: readonly PassOutcome[];
  train: (request: TrainRequest) => Promise<NightStepResult>;
}

/** The report's fields a pass owns (`memory`, `skill_groups`, ...). */
export type ReportSection = Partial<
  Pick<NightReport, 'memory' | 'memory_files' | 'skill_groups' | 'skill_packages'>
>;

export interface PassOutcome {
  pass: string;
  /**
   * The step joined into the night's own result (baseline of the first, candidate of the last, edits
   * of all); null for a pass reported apart (fan-out groups).
   */
  joined: { target: EditTarget; step: NightStepResult } | null;
  /** Usage of steps reported apart, counted in the night's totals. */
  apartUsage: Usage;
  /** The documents it changed, to stage (nothing unchanged is staged). */
  targets: StageTarget[];
  section: ReportSection;
  notes: string[];
}

export interface NightPass {
  name: string;
  /** Trains without the outcomes of the passes before it, so it need not wait for theirs. */
  independent?: boolean;
  applies(plan: TrainingPlan): boolean;
  run(ctx: PassContext): Promise<PassOutcome>;
  /** Its section when it did not run, or when the budget stopped the night and its outcome was dropped. */
  idleSection(plan: TrainingPlan): ReportSection;
}
