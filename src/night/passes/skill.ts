/** The managed skill's pass: the night's first, with the whole edit_budget. */
import { zeroUsage } from '../../core/usage.js';
import type { NightPass } from './types.js';

export const skillPass: NightPass = {
  name: 'skill',
  // Skills the user named take the managed skill's place (`skill-packages.ts`).
  applies: (plan) => plan.config.evolve_skill && (plan.targets.packages?.skills.length ?? 0) === 0,
  async run({ plan, train }) {
    const { skill, targets } = plan;
    const step = await train({
      target: 'skill',
      doc: skill.workingText,
      other: targets.memory?.liveText ?? '',
      editBudget: plan.config.edit_budget,
    });
    const changed = step.accepted && step.skill !== skill.workingText;
    return {
      pass: 'skill',
      joined: { target: 'skill', step },
      apartUsage: zeroUsage(),
      targets: changed
        ? [{ kind: 'skill', livePath: skill.livePath, baseText: skill.liveText, proposedText: step.skill }]
        : [],
      section: {},
      notes: [],
    };
  },
  idleSection: () => ({}),
};
