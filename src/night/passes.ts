/**
 * A night trains up to two documents in turn: the skill, then the memory document with the
 * (possibly updated) skill in place. The report shows the night as one result: baseline of the
 * first pass, candidate of the last, edits of both (each edit names its target).
 */
import type { StageTarget } from '../../proposals/index.js';
import { addUsage, zeroUsage } from '../core/usage.js';
import type { NightStepResult } from './night-step.js';
import { learnedRules } from '../trainer/learned-block.js';
import type { MemoryTarget } from './memory-target.js';
import { finiteOrNull, type MemoryPassReport } from './night-report.js';
import type { SkillTarget } from './skill-target.js';

export function combineSteps(
  skill: NightStepResult | null,
  memory: NightStepResult | null,
  skillText: string,
): NightStepResult {
  const passes = [skill, memory].filter((e): e is NightStepResult => e !== null);
  const first = passes[0];
  const last = passes.at(-1);
  if (first === undefined || last === undefined)
    throw new Error('unreachable: a night runs at least one pass');
  const usage = zeroUsage();
  for (const p of passes) addUsage(usage, p.usage);
  const accepted = passes.filter((p) => p.accepted);
  return {
    accepted: accepted.length > 0,
    gateAction: accepted[0]?.gateAction ?? first.gateAction,
    noEditsReason:
      accepted.length > 0 ? '' : (passes.map((p) => p.noEditsReason).find((r) => r !== '') ?? ''),
    baseline: first.baseline,
    candidate: last.candidate,
    holdoutLeaked: first.holdoutLeaked,
    skill: skill?.skill ?? skillText,
    edits: passes.flatMap((p) => p.edits),
    rejectedEdits: passes.flatMap((p) => p.rejectedEdits),
    unmatchedEdits: passes.flatMap((p) => p.unmatchedEdits),
    trials: passes.flatMap((p) => p.trials),
    pendingEdits: passes.flatMap((p) => p.pendingEdits),
    testScore: last.testScore,
    counts: first.counts,
    usage,
  };
}

/** What the memory pass did, for report.json's `memory` section. */
export function memoryReport(memory: MemoryTarget, epoch: NightStepResult): MemoryPassReport {
  return {
    target_path: memory.livePath,
    chosen_by: memory.chosenBy,
    accepted: epoch.accepted,
    gate_action: epoch.gateAction,
    baseline: finiteOrNull(epoch.baseline),
    candidate: finiteOrNull(epoch.candidate),
    no_edits_reason: epoch.noEditsReason,
    learned_rules: learnedRules(epoch.skill, 'memory'),
  };
}

/** The documents an accepted pass changed; nothing unchanged (or empty and new) is staged. */
export function stageTargets(
  skill: SkillTarget,
  skillEpoch: NightStepResult | null,
  memory: MemoryTarget | null,
  memoryEpoch: NightStepResult | null,
): StageTarget[] {
  const targets: StageTarget[] = [];
  if (skillEpoch?.accepted && skillEpoch.skill !== skill.workingText) {
    targets.push({
      kind: 'skill',
      livePath: skill.livePath,
      baseText: skill.liveText,
      proposedText: skillEpoch.skill,
    });
  }
  if (memory && memoryEpoch?.accepted && memoryEpoch.skill !== (memory.liveText ?? '')) {
    targets.push({
      kind: 'memory',
      livePath: memory.livePath,
      baseText: memory.liveText,
      proposedText: memoryEpoch.skill,
    });
  }
  return targets;
}
