/**
 * A night's tasks from files instead of the user's transcripts: one tasks file (`--tasks-file`), a
 * benchmark seed folder (`--tasks-file DIR`: its skill, training and held-out tasks), or the union of
 * every tasks file in a team's folders (`--tasks-from`). Either way a backend that sends data off the
 * machine refuses a file a person has not marked `"reviewed": true` (a seed folder: a `REVIEWED` file).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { InputError, IoError, errnoCode, errorMessage } from '../core/errors.js';
import type { TaskRecord } from '../core/task.js';
import { loadTasksFile, type LoadTasksOptions } from '../miner/tasks-file.js';
import { unionTeamTasks } from '../miner/team-tasks.js';
import type { TaskSet } from './night-tasks.js';
import { loadSkillTarget, seedSkillTarget } from './skill-target.js';
import type { NightDeps, NightRequest } from './run-night.js';
import { replayableTasks } from '../miner/no-request.js';
import { isFolder, loadSeedFolder, SEED_REVIEWED_FILE, SEED_SKILL_FILE } from '../miner/seed-folder.js';

const loadOptions = (req: NightRequest, deps: NightDeps): LoadTasksOptions => ({
  seed: req.config.seed,
  valFraction: req.config.val_fraction,
  testFraction: req.config.test_fraction,
  warn: (m) => deps.logger.warn(m),
});

export function loadFromTasksFile(req: NightRequest, deps: NightDeps, file: string): TaskSet {
  if (isFolder(file)) return loadFromSeedFolder(req, deps, file);
  const loaded = loadTasksFile(file, loadOptions(req, deps));
  refuseUnreviewed(deps, loaded.reviewed ? [] : [file]);
  return tasksFromFiles(loaded.tasks, loaded.reviewed);
}

/**
 * `--tasks-file DIR`, a benchmark seed folder: its training tasks are split into train and val, its
 * held-out tasks are only the final test, and its SKILL.md is the skill the night starts from.
 */
function loadFromSeedFolder(req: NightRequest, deps: NightDeps, dir: string): TaskSet {
  const seed = loadSeedFolder(dir, {
    seed: req.config.seed,
    valFraction: req.config.val_fraction,
    warn: (m) => deps.logger.warn(m),
  });
  refuseUnreviewedSeed(deps, dir, seed.reviewed);
  // Refused before the night saves anything: a handoff night would otherwise resume into the same refusal.
  seedSkillTarget(loadSkillTarget(req.project, req.config), seed.skill);
  const count = (split: string): number => seed.tasks.filter((t) => t.split === split).length;
  const note = `seed ${seed.name}: ${seed.nTraining} training tasks (train ${count('train')}, validation ${count('val')}), ${seed.nHeldOut} held-out tasks for the test only; the night starts from its ${SEED_SKILL_FILE}`;
  deps.logger.progress(note);
  return { ...tasksFromFiles(seed.tasks, seed.reviewed, [note]), seedSkill: seed.skill };
}

/**
 * `--tasks-from DIR...`: every tasks file in each folder, united (`unionTeamTasks`). Only these
 * files: the user's own mined tasks are not added (their own export is one of the files).
 */
export function loadFromTeamDirs(req: NightRequest, deps: NightDeps, dirs: readonly string[]): TaskSet {
  const files = teamTaskFiles(dirs);
  const loaded = files.map((file) => ({ file, ...loadTasksFile(file, loadOptions(req, deps)) }));
  refuseUnreviewed(
    deps,
    loaded.filter((f) => !f.reviewed).map((f) => f.file),
  );
  const union = unionTeamTasks(loaded);
  if (union.tasks.length === 0) {
    throw new InputError(
      `--tasks-from: the ${files.length} tasks file${files.length === 1 ? '' : 's'} in ${dirs.join(', ')} hold no task`,
      'no_team_tasks',
    );
  }
  const counted = [
    union.duplicates > 0 ? `${union.duplicates} held by two files counted once` : '',
    union.renamed > 0 ? `${union.renamed} given new ids (one id named different tasks)` : '',
  ].filter((s) => s !== '');
  const note = `tasks from ${files.length} files (${files.map((f) => path.basename(f)).join(', ')}): ${union.tasks.length} tasks${counted.length > 0 ? `; ${counted.join('; ')}` : ''}`;
  deps.logger.progress(note);
  return tasksFromFiles(
    union.tasks,
    loaded.every((f) => f.reviewed),
    [note],
  );
}

/**
 * The `*.json` regular files directly in each folder, sorted by name, each once. Symbolic links are
 * skipped: the folder comes with a repository, and a link could point anywhere on this machine.
 */
export function teamTaskFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  for (const dir of dirs) {
    const inDir = readFolder(dir)
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
      .map((e) => path.join(dir, e.name))
      .sort();
    if (inDir.length === 0) {
      throw new InputError(`--tasks-from ${dir}: no tasks file (*.json) in this folder`, 'no_team_tasks');
    }
    for (const file of inDir) if (!files.includes(file)) files.push(file);
  }
  return files;
}

function readFolder(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') throw new InputError(`--tasks-from ${dir}: no such folder`);
    if (code === 'ENOTDIR') throw new InputError(`--tasks-from ${dir}: not a folder`);
    throw new IoError(`--tasks-from ${dir}: cannot read the folder: ${errorMessage(err)}`);
  }
}

/** A backend that sends data off the machine sends no task a person has not marked reviewed. */
export function refuseUnreviewed(deps: Pick<NightDeps, 'backend'>, unreviewed: readonly string[]): void {
  if (deps.backend.offline || unreviewed.length === 0) return;
  const one = unreviewed.length === 1;
  throw new InputError(
    `refusing to send tasks from ${unreviewed.join(', ')} to the ${deps.backend.name} backend: ${one ? 'the file is' : 'these files are'} not marked "reviewed": true. Inspect and redact ${one ? 'it' : 'them'}, then set "reviewed": true`,
    'unreviewed_tasks_file',
  );
}

/** The same rule for a seed folder, which a person marks reviewed with an empty `REVIEWED` file. */
function refuseUnreviewedSeed(deps: Pick<NightDeps, 'backend'>, dir: string, reviewed: boolean): void {
  if (deps.backend.offline || reviewed) return;
  throw new InputError(
    `refusing to send tasks from the seed folder ${dir} to the ${deps.backend.name} backend: it is not marked reviewed. Inspect its tasks, then add an empty ${SEED_REVIEWED_FILE} file to it`,
    'unreviewed_tasks_file',
  );
}

/** The night's task set when its tasks come from files: nothing was harvested or mined. */
export function tasksFromFiles(tasks: TaskRecord[], reviewed: boolean, notes: string[] = []): TaskSet {
  return {
    // A file written by `harvest --output` lists the sessions that asked for nothing: never replayed.
    tasks: replayableTasks(tasks),
    nSessions: 0,
    sessionsLeftOut: 0,
    nClusters: 0,
    nRecurring: 0,
    harvest: null,
    reviewed,
    notes,
    clusters: [],
    taskSummaries: [],
    llmMiner: null,
    llmRefine: null,
  };
}
