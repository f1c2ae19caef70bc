/**
 * The memory documents' pass (`evolve_memory`): trained with the (possibly updated) skill in place,
 * on what the passes before it left of edit_budget (the budget bounds the whole night). Each file the
 * night's lessons route to (`memory-routes.ts`) trains on its own tasks: the first (most tasks) is the
 * night's joined step, the others are reported apart (`memory_files`). A document whose frontmatter its
 * agent would not read is not staged.
 */
import { addUsage, zeroUsage } from '../../core/usage.js';
import type { StageTarget } from '../../../proposals/index.js';
import { learnedRules } from '../../trainer/learned-block.js';
import type { MemoryTarget } from '../memory-target.js';
import { frontmatterProblem } from '../memory-format.js';
import { finiteOrNull, type MemoryPassReport } from '../night-report.js';
import type { NightStepResult } from '../night-step.js';
import type { NightPass } from './types.js';

export const memoryPass: NightPass = {
  name: 'memory',
  applies: (plan) => plan.targets.memory !== null,
  async run({ plan, before, train }) {
    const first = plan.targets.memory;
    if (!first) throw new Error('unreachable: the memory pass runs with a memory target');
    const files = plan.targets.memoryFiles?.length ? plan.targets.memoryFiles : [first];
    const skillStep = before.find((o) => o.joined?.target === 'skill')?.joined?.step;
    let left = Math.max(
      0,
      plan.config.edit_budget - before.reduce((n, o) => n + (o.joined?.step.edits.length ?? 0), 0),
    );
    const other = skillStep?.accepted ? skillStep.skill : plan.skill.workingText;
    const trained: Array<{ memory: MemoryTarget; step: NightStepResult }> = [];
    for (const memory of files) {
      const step = await train({
        target: 'memory',
        doc: memory.startText,
        other,
        editBudget: left,
        ...(memory.tasks ? { tasks: memory.tasks } : {}),
        // Tied edits are the night's memory step's: re-tested in the first file only.
        ...(trained.length > 0 ? { pending: [] } : {}),
      });
      left = Math.max(0, left - (step.accepted ? step.edits.length : 0));
      trained.push({ memory, step });
    }
    const [joined, ...apart] = trained;
    if (!joined) throw new Error('unreachable: the memory pass trains at least one file');
    const apartUsage = zeroUsage();
    for (const { step } of apart) addUsage(apartUsage, step.usage);
    const notes: string[] = [];
    const targets: StageTarget[] = [];
    for (const { memory, step } of trained) {
      if (!step.accepted || step.skill === memory.startText) continue;
      const problem = frontmatterProblem(memory.format, step.skill);
      if (problem !== null) {
        notes.push(`the memory document ${memory.livePath} was not staged: ${problem}`);
        continue;
      }
      targets.push({
        kind: 'memory',
        livePath: memory.livePath,
        baseText: memory.liveText,
        proposedText: step.skill,
      });
    }
    return {
      pass: 'memory',
      joined: { target: 'memory', step: joined.step },
      apartUsage,
      targets,
      section: {
        memory: memoryReport(joined.memory, joined.step),
        ...(trained.length > 1 ? { memory_files: trained.map((t) => memoryReport(t.memory, t.step)) } : {}),
      },
      notes,
    };
  },
  idleSection: () => ({ memory: null }),
};

/** What the memory pass did with one document, for report.json's `memory` and `memory_files`. */
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
