/**
 * The per-skill groups (`multi_skill_fanout`): each found group trains its own skill document with
 * its own edit_budget; the memory document stays read-only. Reported apart from the night's result.
 */
import { addUsage, zeroUsage } from '../../core/usage.js';
import { trainGroups } from '../fanout.js';
import type { NightPass } from './types.js';

export const fanoutPass: NightPass = {
  name: 'fanout',
  // Its groups train their own skills, with the memory document as it is live.
  independent: true,
  applies: (plan) => plan.targets.fanout !== null,
  async run({ plan, train }) {
    const { fanout, memory } = plan.targets;
    if (!fanout) throw new Error('unreachable: the fan-out pass runs with a fan-out plan');
    const groups = await trainGroups(
      fanout,
      plan.project,
      (tasks, doc, editor) =>
        train({
          target: 'skill',
          doc,
          other: memory?.liveText ?? '',
          editBudget: plan.config.edit_budget,
          tasks,
          ...(editor ? { editor } : {}),
        }),
      {
        budgetTokens: plan.config.skill_token_budget,
        inlineTokens: plan.config.skill_inline_reference_tokens,
      },
    );
    const usage = zeroUsage();
    for (const g of groups) if (g.epoch) addUsage(usage, g.epoch.usage);
    return {
      pass: 'fanout',
      joined: null,
      apartUsage: usage,
      targets: groups.flatMap((g) => g.targets),
      section: { skill_groups: groups.map((g) => g.report) },
      notes: groups
        .filter((g) => g.report.status !== 'consolidated')
        .map((g) => `skipped skill ${g.report.skill_name}: ${g.report.reason}`)
        .concat(groups.flatMap((g) => (g.note ? [g.note] : []))),
    };
  },
  // The key is there whenever fan-out is on, empty when the budget stopped the night.
  idleSection: (plan) => (plan.targets.fanout ? { skill_groups: [] } : {}),
};
