/**
 * A night's targets must be files inside the project (as written and with symlinks resolved), and
 * never inside the proposal store. Checked before the night starts, so `dry-run` refuses exactly what
 * `run` would refuse instead of `run` failing after the whole night.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInsideDir, proposalsRootOf, resolveRealPath } from '../../proposals/index.js';
import { InputError } from '../core/errors.js';
import type { Config } from '../config/schema.js';
import type { TaskRecord } from '../core/task.js';
import {
  fallbackAgent,
  loadMemoryTarget,
  readMemoryTarget,
  resolveMemoryPath,
  type MemoryTarget,
} from './memory-target.js';
import { memoryRoutes, type RoutedLesson } from './memory-routes.js';
import { resolveSkillPath } from './skill-target.js';

async function assertInsideProject(livePath: string, project: string, what: string): Promise<void> {
  if (isInsideDir(livePath, proposalsRootOf(project))) {
    throw new InputError(`${what} ${livePath} is inside the proposal store; choose another path`);
  }
  const inside =
    isInsideDir(livePath, project) && isInsideDir(await resolveRealPath(livePath), await realpath(project));
  if (!inside) {
    throw new InputError(
      `${what} ${livePath} is outside the project ${project}; a night only writes files inside the project, so choose a path inside it`,
    );
  }
}

/** The skill and a configured memory document (the agent's own memory file is always inside). */
export async function assertNightTargets(project: string, config: Config): Promise<void> {
  if (config.evolve_skill) {
    await assertInsideProject(
      resolveSkillPath(project, config),
      project,
      'the target skill (--target-skill-path / target_skill_path)',
    );
  }
  if (config.evolve_memory && config.memory_target !== 'auto') {
    await assertInsideProject(
      path.resolve(project, config.memory_target),
      project,
      'the memory document (memory_target)',
    );
  }
}

/**
 * The memory document, checked inside the project before it is read: with `memory_target: "auto"` it
 * is known only once the night's sessions are, and a repository may ship `CLAUDE.md` as a symlink to
 * a file outside it, which would otherwise be read and sent before staging refused it.
 */
export async function loadCheckedMemoryTarget(
  project: string,
  config: Config,
  sessionKeys: readonly string[],
): Promise<MemoryTarget> {
  const { livePath } = resolveMemoryPath(project, config, sessionKeys);
  await assertInsideProject(livePath, project, 'the memory document');
  return loadMemoryTarget(project, config, sessionKeys);
}

/**
 * Every memory document a night trains, each checked inside the project before it is read: one per
 * file the tasks' lessons route to (the file with most tasks first), or the configured `memory_target`
 * with every task. A night without tasks has the one file its agent reads.
 */
export async function loadCheckedMemoryTargets(
  project: string,
  config: Config,
  tasks: readonly TaskRecord[],
  lessons: readonly RoutedLesson[],
): Promise<MemoryTarget[]> {
  const routes = config.memory_target === 'auto' ? memoryRoutes(tasks, lessons, fallbackAgent(config)) : [];
  if (routes.length === 0)
    return [
      await loadCheckedMemoryTarget(
        project,
        config,
        tasks.flatMap((t) => t.source_sessions),
      ),
    ];
  const targets: MemoryTarget[] = [];
  for (const route of routes) {
    const livePath = path.join(project, route.file);
    await assertInsideProject(livePath, project, 'the memory document');
    // One file alone trains on every task, as a night with one agent always did.
    targets.push({
      ...readMemoryTarget(livePath, route.chosenBy),
      ...(routes.length > 1 ? { tasks: route.tasks } : {}),
    });
  }
  return targets;
}
