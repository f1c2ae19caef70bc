/**
 * The memory document's pass (`evolve_memory`): trained with the (possibly updated) skill in place,
 * on what the passes before it left of edit_budget (the budget bounds the whole night).
 */
import { zeroUsage } from '../../core/usage.js';
import { learnedRules } from '../../trainer/learned-block.js';
import type { MemoryTarget } from '../memory-target.js';
import { finiteOrNull, type MemoryPassReport } from '../night-report.js';
import type { NightStepResult } from '../night-step.js';
import type { NightPass } from './types.js';

export const memoryPass: NightPass = {
  name: 'memory',
  applies: (plan) => plan.targets.memory !== null,
  async run({ plan, before, train }) {
    const memory = plan.targets.memory;
    if (!memory) throw new Error('unreachable: the memory pass runs with a memory target');
    const skillStep = before.find((o) => o.joined?.target === 'skill')?.joined?.step;
    const used = before.reduce((n, o) => n + (o.joined?.step.edits.length ?? 0), 0);
    const liveText = memory.liveText ?? '';
    const step = await train({
      target: 'memory',
      doc: liveText,
      other: skillStep?.accepted ? skillStep.skill : plan.skill.workingText,
      editBudget: Math.max(0, plan.config.edit_budget - used),
    });
    const changed = step.accepted && step.skill !== liveText;
    return {
      pass: 'memory',
      joined: { target: 'memory', step },
      apartUsage: zeroUsage(),
      targets: changed
        ? [{ kind: 'memory', livePath: memory.livePath, baseText: memory.liveText, proposedText: step.skill }]
        : [],
      section: { memory: memoryReport(memory, step) },
      notes: [],
    };
  },
  idleSection: () => ({ memory: null }),
};

/** What the memory pass did, for report.json's `memory` section. */
export function memoryReport(memory: MemoryTarget, step: NightStepResult): MemoryPassReport {
  return {
    target_path: memory.livePath,
    chosen_by: memory.chosenBy,
    accepted: step.accepted,
    gate_action: step.gateAction,
    baseline: finiteOrNull(step.baseline),
    candidate: finiteOrNull(step.candidate),
    no_edits_reason: step.noEditsReason,
    learned_rules: learnedRules(step.skill, 'memory'),
  };
}
