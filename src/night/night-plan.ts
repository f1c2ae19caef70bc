/**
 * What a night will do, decided before it trains: its tasks (mined or from a tasks file), its targets
 * (the skill, the memory document, the fan-out groups), the edits it re-tests, its spend plan and
 * whether it records. Planning writes nothing of the night (harvesting stores sessions, as it always
 * does, and a handoff night saves its mined state); dry-run's plan-only output is this plan.
 */
import { InputError } from '../core/errors.js';
import type { Edit } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { pendingEdits, rejectedEdits } from '../store/learning-repo.js';
import { countNights } from '../store/nights-repo.js';
import { forgottenLessons } from '../store/forgotten-lessons-repo.js';
import type { ForgottenLesson } from '../core/forgotten-lesson.js';
import type { Db } from '../store/db.js';
import { isInsideDir } from '../../proposals/index.js';
import type { RejectedEditRow } from '../store/learning-repo.js';
import { planFanout, type FanoutPlan } from './fanout.js';
import { assignTasks, planNamedSkills, type NamedSkillsPlan } from './named-skills.js';
import { emptyTaskSet } from './handoff-night.js';
import type { MemoryTarget } from './memory-target.js';
import { taskCountText } from './night-report.js';
import { nightTasks, type TaskSet } from './night-tasks.js';
import type { NightDeps, NightRequest } from './run-night.js';
import { loadSkillTarget, resolveSkillPath, seedSkillTarget, type SkillTarget } from './skill-target.js';
import { planSpend, type SpendPlan } from './spend-plan.js';
import { assertNightTargets, loadCheckedMemoryTargets } from './target-check.js';

/** The documents a training night works on besides the skill. */
export interface NightTargets {
  /** The memory document most tasks route to (the other passes show it beside the skill). */
  memory: MemoryTarget | null;
  /** Every memory document the memory pass trains, `memory` first (one per agent file, `memory-routes.ts`). */
  memoryFiles?: MemoryTarget[];
  fanout: FanoutPlan | null;
  /** The skills named with `--skill` / `skills:` (trained whole); null when none is named. */
  packages?: NamedSkillsPlan | null;
}

export interface NightPlan {
  project: string;
  mode: NightRequest['mode'];
  config: Config;
  tasksFile: string | null;
  /** The folders of `--tasks-from`; null when the tasks come from elsewhere. */
  tasksFrom: string[] | null;
  /** A recording night (`run`) stores its result and stages a proposal; a dry-run writes nothing. */
  records: boolean;
  /** This night's number for the project (nights recorded so far + 1). */
  night: number;
  started: number;
  tasks: TaskSet;
  skill: SkillTarget;
  /** Tied edits of earlier nights, re-tested with this night's, and edits known to hurt. */
  pending: Edit[];
  rejected: RejectedEditRow[];
  /** Rules the user rejected or forgot in this project: no edit that states one is applied. */
  forgotten?: ForgottenLesson[];
  spend: SpendPlan;
  /** Null for a plan-only night (dry-run without --yes): it never trains. */
  targets: NightTargets | null;
  /**
   * Why the night cannot train, found once its tasks were known (both passes off, a memory document
   * outside the project): a recording night records it as a failed night before raising it.
   */
  refusal: Error | null;
}

/** The night's plan. Throws before mining when a configured target is outside the project. */
export async function planNight(req: NightRequest, deps: NightDeps, started: number): Promise<NightPlan> {
  if (req.projectGone) return goneProjectPlan(req, deps, started);
  await assertNightTargets(req.project, req.config);
  const live = loadSkillTarget(req.project, req.config);
  const tasks = await nightTasks(req, deps, started);
  const skill = tasks.seedSkill === undefined ? live : seedSkillTarget(live, tasks.seedSkill);
  deps.logger.progress(`mine: ${taskCountText(tasks.tasks.length, tasks.nClusters, tasks.nRecurring)}`);
  const pending = pendingEdits(deps.db, req.project);
  const plan: NightPlan = {
    ...planBasics(req, deps, started, skill),
    tasks,
    pending,
    rejected: rejectedEdits(deps.db, req.project),
    forgotten: projectForgotten(deps.db, req.project),
    spend: planSpend(tasks.tasks, req.config, pending.length),
  };
  if (req.planOnly) return plan;
  try {
    return { ...plan, targets: await planTargets(req, deps, plan) };
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    return { ...plan, refusal: err };
  }
}

/**
 * A night on a folder that is not on this machine: it mines what the store holds (the lessons model
 * pass stores what it reads, for `lessons` and `harvest`), then refuses to train: there is no skill to
 * read and no folder to stage a proposal in.
 */
async function goneProjectPlan(req: NightRequest, deps: NightDeps, started: number): Promise<NightPlan> {
  const tasks = await nightTasks(req, deps, started);
  deps.logger.progress(`mine: ${taskCountText(tasks.tasks.length, tasks.nClusters, tasks.nRecurring)}`);
  const plan: NightPlan = {
    ...waitingPlan(req, deps, started),
    tasks,
    spend: planSpend(tasks.tasks, req.config, 0),
  };
  if (req.planOnly) return plan;
  const refusal = new InputError(
    `project folder ${req.project} is not on this machine: the night mined the sessions stored for it (what a model read in them is kept: \`skillopt-sleep lessons --project\` lists the lessons) but has no skill to train and no folder to stage a proposal in`,
  );
  return { ...plan, refusal };
}

/**
 * The plan of a handoff night that stopped to wait before its mining finished: no tasks yet. Planning
 * stopped before it returned, so this is what the waiting report says about the night.
 */
export function waitingPlan(req: NightRequest, deps: NightDeps, started: number): NightPlan {
  const livePath = resolveSkillPath(req.project, req.config);
  const skill: SkillTarget = { livePath, liveText: null, workingText: '' };
  return {
    ...planBasics(req, deps, started, skill),
    tasks: emptyTaskSet(),
    pending: [],
    rejected: [],
    forgotten: [],
    spend: planSpend([], req.config, 0),
  };
}

function planBasics(req: NightRequest, deps: NightDeps, started: number, skill: SkillTarget) {
  return {
    project: req.project,
    mode: req.mode,
    config: req.config,
    tasksFile: req.tasksFile ?? null,
    tasksFrom: req.tasksFrom ? [...req.tasksFrom] : null,
    records: req.mode === 'run',
    night: countNights(deps.db, req.project) + 1,
    started,
    skill,
    targets: null,
    refusal: null,
  };
}

async function planTargets(req: NightRequest, deps: NightDeps, plan: NightPlan): Promise<NightTargets> {
  const { config } = req;
  if (!config.evolve_skill && !config.evolve_memory) {
    throw new InputError('evolve_skill and evolve_memory are both false: a night has nothing to train');
  }
  const packages =
    config.skills.length > 0 ? planNamedSkills(plan.tasks.tasks, config, req.project, deps.userHome) : null;
  const namedPaths = packages?.skills.map((s) => s.pkg.skill.livePath) ?? [];
  const fanout = config.multi_skill_fanout
    ? planFanout(plan.tasks.tasks, config, req.project, deps.userHome, plan.skill.livePath, namedPaths)
    : null;
  // A task fan-out trains into another skill is not learned into a named one too.
  if (packages && fanout) assignTasks(packages.skills, fanout.managedTasks);
  const memoryFiles = config.evolve_memory
    ? await loadCheckedMemoryTargets(
        req.project,
        config,
        fanout?.managedTasks ?? plan.tasks.tasks,
        plan.tasks.lessons ?? [],
      )
    : [];
  return { memory: memoryFiles[0] ?? null, memoryFiles, fanout, packages };
}

/** The forgotten lessons and rejected rules of the project (its folder, one above it, or one below). */
function projectForgotten(db: Db, project: string): ForgottenLesson[] {
  return forgottenLessons(db).filter(
    (f) => f.project === project || isInsideDir(project, f.project) || isInsideDir(f.project, project),
  );
}
