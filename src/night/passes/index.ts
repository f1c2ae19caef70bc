/**
 * The registry of a night's passes, in the order they run: the skill (the managed one, or the skills
 * the user named), then the memory document with
 * the skill's result in place, then the per-skill groups. Adding a pass is one file and one line here.
 */
import { BudgetExhaustedError } from '../../core/errors.js';
import { WaitList } from '../../core/waits.js';
import { fanoutPass } from './fanout.js';
import { memoryPass } from './memory.js';
import { skillPass } from './skill.js';
import { skillPackagesPass } from './skill-packages.js';
import type { NightPass, PassContext, PassOutcome, ReportSection, TrainingPlan } from './types.js';

export const NIGHT_PASSES: readonly NightPass[] = [skillPass, skillPackagesPass, memoryPass, fanoutPass];

export interface PassesResult {
  /** In registry order; empty when the budget stopped the night. */
  outcomes: PassOutcome[];
  /** The budget ran out mid-night: nothing of this night is kept or staged, not even a finished pass. */
  budgetStop: { limit: string } | null;
  /** Every pass's report section, in registry order: its own, or its idle one. */
  sections: ReportSection;
}

/**
 * Run every pass that applies, in order; a budget stop drops every outcome. While a pass waits for
 * answers, the passes that train without it (`independent`) still queue theirs.
 */
export async function runPasses(
  plan: TrainingPlan,
  train: PassContext['train'],
  passes: readonly NightPass[] = NIGHT_PASSES,
): Promise<PassesResult> {
  const outcomes: PassOutcome[] = [];
  let budgetStop: PassesResult['budgetStop'] = null;
  try {
    const waits = new WaitList();
    for (const pass of passes) {
      if (!pass.applies(plan) || (waits.waiting && !pass.independent)) continue;
      const outcome = await waits.pass(pass.run({ plan, before: outcomes, train }));
      if (outcome) outcomes.push(outcome);
    }
    waits.rethrow();
  } catch (err) {
    if (!(err instanceof BudgetExhaustedError)) throw err;
    budgetStop = { limit: err.limit };
    outcomes.length = 0;
  }
  const sections: ReportSection = {};
  for (const pass of passes) {
    const outcome = outcomes.find((o) => o.pass === pass.name);
    Object.assign(sections, outcome ? outcome.section : pass.idleSection(plan));
  }
  return { outcomes, budgetStop, sections };
}
