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
import { loadMemoryTarget, resolveMemoryPath, type MemoryTarget } from './memory-target.js';
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
