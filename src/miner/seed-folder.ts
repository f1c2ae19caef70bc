/**
 * A benchmark seed folder in the shape gbrain-evals publishes for `skillopt-v1`: `SKILL.md` (the
 * deficient skill a night starts from), `benchmark.jsonl` (training tasks) and `held-out.jsonl` (tasks
 * kept for the final test), each line `{"task_id", "task", "judge": {"kind": "rule", "checks": [...]}}`.
 *
 * Training tasks are split into train and val by hash; held-out tasks are the test split and nothing
 * else. A seed folder may come with a repository, so it is read as untrusted input: only those three
 * regular files (a symbolic link could point anywhere on this machine), each bounded in size and task
 * count, every text cleaned of control characters (and the tasks' texts redacted) as tasks files are.
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError, errnoCode, errorMessage } from '../core/errors.js';
import { readRegularFile } from '../core/io/regular-file.js';
import { plainText, storedText } from '../core/safe-text.js';
import { emptyTask, type Check, type TaskRecord } from '../core/task.js';
import { validateJudge } from '../replay/judges/validate-checks.js';
import { assignSplits, type SplitOptions } from './split.js';

export const SEED_SKILL_FILE = 'SKILL.md';
export const SEED_TRAINING_FILE = 'benchmark.jsonl';
export const SEED_HELD_OUT_FILE = 'held-out.jsonl';
/** A person marks a seed folder reviewed (a real backend may then be sent its tasks) with this file. */
export const SEED_REVIEWED_FILE = 'REVIEWED';

/** Bounds on what a seed folder may hold: a skill is a page, a benchmark a few hundred tasks. */
export const SEED_LIMITS = {
  skillBytes: 256 * 1024,
  tasksFileBytes: 4 * 1024 * 1024,
  tasksPerFile: 1000,
  idChars: 200,
  taskChars: 20_000,
} as const;

const LINE_SHAPE =
  '{"task_id": "bm-001", "task": "...", "judge": {"kind": "rule", "checks": [{"op": "contains", "arg": "..."}]}}';

export interface LoadedSeed {
  dir: string;
  /** The folder's name: the tasks' kind (`kind:<name>` tag). */
  name: string;
  /** SKILL.md as written (frontmatter included), without control characters. */
  skill: string;
  /** Training tasks (split train or val), then held-out tasks (split test). */
  tasks: TaskRecord[];
  nTraining: number;
  nHeldOut: number;
  /** True when the folder holds a `REVIEWED` file. */
  reviewed: boolean;
}

export interface LoadSeedOptions extends Pick<SplitOptions, 'seed' | 'valFraction'> {
  /** Validator warnings of training tasks. Held-out tasks' are never reported: that would describe their judges. */
  warn: (message: string) => void;
}

/** Whether `p` names a folder (followed if it is a link: the user typed it). */
export function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function loadSeedFolder(dir: string, opts: LoadSeedOptions): LoadedSeed {
  const skill = readSeedSkill(dir);
  const training = readSeedTasks(dir, SEED_TRAINING_FILE, opts.warn);
  const heldOut = readSeedTasks(dir, SEED_HELD_OUT_FILE, () => {});
  if (training.length === 0) throw seedError(dir, `${SEED_TRAINING_FILE} holds no task`);
  if (heldOut.length === 0) throw seedError(dir, `${SEED_HELD_OUT_FILE} holds no task`);
  const trainingIds = new Set(training.map((t) => t.id));
  const shared = heldOut.find((t) => trainingIds.has(t.id));
  if (shared)
    throw seedError(
      dir,
      `task id "${shared.id}" is in both ${SEED_TRAINING_FILE} and ${SEED_HELD_OUT_FILE}: a held-out task must not be a training task`,
    );
  const name = seedName(dir);
  const tag = (t: TaskRecord): TaskRecord => ({ ...t, tags: [`kind:${name}`] });
  // The held-out tasks are the test: the training tasks are cut into train and val only.
  const split = assignSplits(training.map(tag), { ...opts, testFraction: 0 });
  return {
    dir,
    name,
    skill,
    tasks: [...split, ...heldOut.map((t) => ({ ...tag(t), split: 'test' as const }))],
    nTraining: training.length,
    nHeldOut: heldOut.length,
    reviewed: hasRegularFile(dir, SEED_REVIEWED_FILE),
  };
}

/** The folder's own name as a one-line label (it names the tasks' kind in reports). */
function seedName(dir: string): string {
  const base = plainText(path.basename(path.resolve(dir)), ' ').trim();
  return base === '' ? 'seed' : base.slice(0, 80);
}

function seedError(dir: string, message: string): InputError {
  return new InputError(`seed folder ${dir}: ${message}`, 'bad_seed_folder');
}

/** A seed file's bytes: a regular file in the folder itself, not a link, within its size bound. */
function readSeedFile(dir: string, name: string, maxBytes: number): Buffer {
  const file = path.join(dir, name);
  let isLink: boolean;
  try {
    isLink = lstatSync(file).isSymbolicLink();
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw seedError(dir, `no ${name} (a seed folder holds ${SEED_FILES})`);
    throw seedError(dir, `cannot read ${name}: ${errorMessage(err)}`);
  }
  if (isLink) throw seedError(dir, `${name} is a symbolic link; a seed folder's files must be regular files`);
  try {
    return readRegularFile(file, maxBytes);
  } catch (err) {
    throw seedError(dir, `cannot read ${name}: ${errorMessage(err)}`);
  }
}

const SEED_FILES = `${SEED_SKILL_FILE}, ${SEED_TRAINING_FILE} and ${SEED_HELD_OUT_FILE}`;

function utf8(dir: string, name: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw seedError(dir, `${name} is not valid UTF-8`);
  }
}

function hasRegularFile(dir: string, name: string): boolean {
  try {
    return lstatSync(path.join(dir, name)).isFile();
  } catch {
    return false;
  }
}

function readSeedSkill(dir: string): string {
  const bytes = readSeedFile(dir, SEED_SKILL_FILE, SEED_LIMITS.skillBytes);
  // Control characters out (an escape sequence would reach the agent and the terminal); the
  // frontmatter and every other byte stay as written.
  const text = plainText(utf8(dir, SEED_SKILL_FILE, bytes));
  if (text.trim() === '') throw seedError(dir, `${SEED_SKILL_FILE} is empty`);
  return text;
}

function readSeedTasks(dir: string, name: string, warn: (message: string) => void): TaskRecord[] {
  const text = utf8(dir, name, readSeedFile(dir, name, SEED_LIMITS.tasksFileBytes));
  const tasks: TaskRecord[] = [];
  const lineOf = new Map<string, number>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${name}:${index + 1}`;
    if (tasks.length >= SEED_LIMITS.tasksPerFile)
      throw seedError(dir, `${name} holds more than ${SEED_LIMITS.tasksPerFile} tasks`);
    const task = parseSeedLine(dir, where, line, warn);
    const earlier = lineOf.get(task.id);
    if (earlier !== undefined)
      throw seedError(dir, `${where}: task id "${task.id}" is already used on line ${earlier}`);
    lineOf.set(task.id, index + 1);
    tasks.push(task);
  });
  return tasks;
}

function parseSeedLine(dir: string, where: string, line: string, warn: (m: string) => void): TaskRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw seedError(dir, `${where}: invalid JSON (${oneLineMessage(err)}). Expected ${LINE_SHAPE}`);
  }
  if (!isObject(value)) throw seedError(dir, `${where}: expected an object like ${LINE_SHAPE}`);
  const id = requiredText(dir, where, value, 'task_id', SEED_LIMITS.idChars);
  const intent = requiredText(dir, where, value, 'task', SEED_LIMITS.taskChars);
  const checks = seedChecks(dir, `${where} (task "${id}")`, value['judge'], (w) => warn(`task ${id}: ${w}`));
  return emptyTask({ id, intent, reference_kind: 'rule', judge: { kind: 'rule', checks } });
}

/** A required text field, cleaned (control characters out, secrets redacted) and bounded. */
function requiredText(
  dir: string,
  where: string,
  value: Record<string, unknown>,
  field: string,
  maxChars: number,
): string {
  const raw = value[field];
  if (typeof raw !== 'string' || raw.trim() === '')
    throw seedError(dir, `${where}: field "${field}" must be a non-empty string. Expected ${LINE_SHAPE}`);
  if (raw.length > maxChars)
    throw seedError(dir, `${where}: field "${field}" is longer than ${maxChars} characters`);
  const clean = field === 'task_id' ? plainText(raw, ' ').replace(/\s+/g, ' ').trim() : storedText(raw);
  if (clean.trim() === '') throw seedError(dir, `${where}: field "${field}" is blank once cleaned`);
  return clean;
}

/** The judge's checks, validated as a tasks file's are: a broken check would mis-score every night. */
function seedChecks(dir: string, where: string, judge: unknown, warn: (w: string) => void): Check[] {
  if (!isObject(judge))
    throw seedError(dir, `${where}: field "judge" must be an object. Expected ${LINE_SHAPE}`);
  if (judge['kind'] !== 'rule')
    throw seedError(dir, `${where}: field "judge.kind" must be "rule", got ${JSON.stringify(judge['kind'])}`);
  const validation = validateJudge(judge);
  if (validation.errors.length > 0)
    throw seedError(dir, `${where}: field "judge": ${validation.errors.join('; ')}`);
  if (validation.checks.length === 0)
    throw seedError(dir, `${where}: field "judge.checks" needs at least one check`);
  validation.warnings.forEach(warn);
  // Untrusted texts: a check's arg reaches reports and reflection; `because` is cleaned by the validator.
  return validation.checks.map((c) => (typeof c.arg === 'string' ? { ...c, arg: plainText(c.arg, ' ') } : c));
}

function oneLineMessage(err: unknown): string {
  return errorMessage(err)
    .replace(/\s*\n\s*/g, ' ')
    .slice(0, 200);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
