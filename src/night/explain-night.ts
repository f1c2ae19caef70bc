/**
 * `run --explain-sends`: the night's plan (harvest and mine, as every night does; no model request:
 * the plan never sends, not even the miner's) and the list of what its requests would send.
 */
import { roleSetup } from '../backends/llm/providers/index.js';
import type { Backend } from '../backends/types.js';
import { errorMessage } from '../core/errors.js';
import type { Config } from '../config/schema.js';
import { explainSends, type SendsExplanation, type SendsInput } from './explain-sends.js';
import { planFanout } from './fanout.js';
import { readUtf8OrNull } from './skill-target.js';
import type { NightPlan } from './night-plan.js';
import { planNight } from './night-plan.js';
import type { NightDeps, NightRequest } from './run-night.js';
import { loadCheckedMemoryTarget } from './target-check.js';

/**
 * Stands in for the configured backend while explaining: it cannot send anything, so it is offline
 * (an unreviewed tasks file is explained, with a note that a real backend would refuse it: reviewing
 * it is what the list is for).
 */
export function sendlessBackend(config: Config): Backend {
  const refuse = (): Promise<never> =>
    Promise.reject(new Error('unreachable: explaining the sends makes no model request'));
  const target = roleSetup(config, 'target').backend;
  const optimizer = roleSetup(config, 'optimizer').backend;
  return {
    name: target === optimizer ? target : `${target}+${optimizer}`,
    offline: true,
    attempt: refuse,
    reflect: refuse,
    judgeRubric: refuse,
  };
}

export async function explainNight(req: NightRequest, deps: NightDeps): Promise<SendsExplanation> {
  const plan = await planNight({ ...req, planOnly: true }, deps, deps.clock.now());
  if (req.projectGone) return explainGoneProject(plan);
  return explainPlan(plan, deps.userHome);
}

/** A folder not on this machine: its night runs the mining passes only, then refuses to train. */
function explainGoneProject(plan: NightPlan): SendsExplanation {
  return explainSends({
    config: plan.config,
    tasks: [],
    skill: { path: plan.skill.livePath, text: '' },
    memory: null,
    rejected: [],
    pending: [],
    kinds: plan.tasks.miningSends ?? [],
    skills: [],
    notes: [
      `project folder ${plan.project} is not on this machine: its night sends only the mining passes listed (no replay, no training)`,
    ],
  });
}

/** The sends of a planned night: the documents it would read, its tasks, and its mining passes. */
export async function explainPlan(plan: NightPlan, userHome: string): Promise<SendsExplanation> {
  const { config } = plan;
  const notes: string[] = [];
  let memory: { path: string; text: string } | null = null;
  if (config.evolve_memory) {
    try {
      const target = await loadCheckedMemoryTarget(
        plan.project,
        config,
        plan.tasks.tasks.flatMap((t) => t.source_sessions),
      );
      memory = { path: target.livePath, text: target.liveText ?? '' };
    } catch (err) {
      notes.push(`the night would refuse its memory document: ${errorMessage(err)}`);
    }
  }
  const skills = config.multi_skill_fanout ? fanoutSkills(plan, userHome) : [];
  if (plan.tasksFile !== null && plan.tasks.reviewed !== true)
    notes.push(
      plan.tasks.seedSkill === undefined
        ? `${plan.tasksFile} is not marked "reviewed": true, so a real backend would refuse to send it`
        : `the seed folder ${plan.tasksFile} holds no REVIEWED file, so a real backend would refuse to send its tasks`,
    );
  if (plan.tasksFrom !== null && plan.tasks.reviewed !== true)
    notes.push(
      `a tasks file in ${plan.tasksFrom.join(', ')} is not marked "reviewed": true, so a real backend would refuse to send them`,
    );
  if (plan.tasksFile === null && plan.tasksFrom === null && config.llm_mine)
    notes.push(
      "llm_mine: the mining prompts listed are built from tonight's offline kinds; a real night adds the tasks the model miner proposes (their requests are written by the model) and, with llm_refine, labels may merge kinds first",
    );
  return explainSends({
    config,
    tasks: plan.tasks.tasks,
    skill: { path: plan.skill.livePath, text: plan.skill.workingText },
    memory,
    rejected: plan.rejected,
    pending: plan.pending,
    kinds: plan.tasks.miningSends ?? [],
    skills,
    notes,
  });
}

/** With `multi_skill_fanout`: each found skill's own document goes with its tasks' attempts instead. */
function fanoutSkills(plan: NightPlan, userHome: string): NonNullable<SendsInput['skills']> {
  const fanout = planFanout(plan.tasks.tasks, plan.config, plan.project, userHome, plan.skill.livePath);
  return fanout.groups.flatMap((g) => {
    if (g.resolution.status !== 'found') return [];
    const text = readUtf8OrNull(g.resolution.livePath);
    return text === null
      ? []
      : [{ name: g.name, path: g.resolution.livePath, text, taskIds: g.tasks.map((t) => t.id) }];
  });
}
