/**
 * Train / val / test assignment by a stable hash of the task id, so the same real task stays in the
 * same split across nights (a fixed validation gate). Dream tasks only ever train.
 */
import { InputError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { Split, TaskRecord } from '../core/task.js';

export interface SplitOptions {
  seed: number;
  valFraction: number;
  testFraction: number;
}

/** The fields splitting reads and writes; callers keep their own task type. */
export type SplittableTask = Pick<TaskRecord, 'id' | 'origin' | 'split'>;

export function splitHash(seed: number, id: string): bigint {
  return BigInt('0x' + sha256Hex(String(seed) + id));
}

export function splitBucket(seed: number, id: string): number {
  return Number(splitHash(seed, id) % 100n);
}

/** Throws InputError unless both fractions are in [0,1] and leave room for a train split. */
export function validateSplitFractions({ valFraction, testFraction }: SplitOptions): void {
  for (const [name, value] of [
    ['val fraction', valFraction],
    ['test fraction', testFraction],
  ] as const) {
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new InputError(`${name} must be between 0 and 1 inclusive, got ${value}`);
    }
  }
  if (valFraction + testFraction >= 1) {
    throw new InputError(
      `val fraction + test fraction must be < 1 so some tasks can train (got ${valFraction} + ${testFraction})`,
    );
  }
}

/**
 * Assigns splits by hash bucket, then (with ≥2 real tasks) guarantees a non-empty val and train:
 * the smallest-hash train task becomes val if there is none; the smallest-hash val task becomes
 * train if that left no train. Test tasks are never promoted. A val fraction of 0 is taken at its
 * word: nothing is promoted to val (the night then reports its holdout leaked). Returns new objects.
 */
export function assignSplits<T extends SplittableTask>(tasks: readonly T[], opts: SplitOptions): T[] {
  validateSplitFractions(opts);
  const assigned = assignByBucket(tasks, opts);
  ensureValAndTrainOverall(assigned, opts);
  return assigned;
}

/**
 * Like {@link assignSplits}, but for tasks grouped by recurring-task cluster: every group with ≥2
 * real members gets ≥1 train and ≥1 val member, so a rule learned on a cluster's train tasks can
 * show on its validation ones. Promotion picks the smallest hash inside the group and takes a test
 * member only when the group has no other way to get both splits.
 */
export function assignSplitsWithinGroups<T extends SplittableTask>(
  tasks: readonly T[],
  groupOf: (task: T) => string | readonly string[],
  opts: SplitOptions,
): T[] {
  validateSplitFractions(opts);
  const assigned = assignByBucket(tasks, opts);
  // A task may be in several groups (the lessons that judge it): each group, in order, gets both
  // splits where its members allow; a later group's promotion can only move its own members.
  for (const members of groupRealTasks(assigned, tasks, groupOf).values()) {
    if (members.length >= 2) ensureGroupHasValAndTrain(members, opts);
  }
  // Only matters when every group is a singleton: then the global guarantees still apply.
  ensureValAndTrainOverall(assigned, opts);
  return assigned;
}

function assignByBucket<T extends SplittableTask>(tasks: readonly T[], opts: SplitOptions): T[] {
  const valCut = pythonRound(opts.valFraction * 100);
  const testCut = valCut + pythonRound(opts.testFraction * 100);
  return tasks.map((task) => ({ ...task, split: bucketSplit(task, opts.seed, valCut, testCut) }));
}

function bucketSplit(task: SplittableTask, seed: number, valCut: number, testCut: number): Split {
  if (task.origin === 'dream') return 'train';
  const bucket = splitBucket(seed, task.id);
  if (bucket < valCut) return 'val';
  if (bucket < testCut) return 'test';
  return 'train';
}

function ensureValAndTrainOverall(tasks: SplittableTask[], { seed, valFraction }: SplitOptions): void {
  const real = tasks.filter(isReal);
  if (real.length < 2) return;
  if (valFraction > 0 && !real.some(inSplit('val'))) promote(real.filter(inSplit('train')), 'val', seed);
  // Dream tasks count as a train pool; only an entirely empty train needs a real task.
  if (!tasks.some(inSplit('train'))) promote(real.filter(inSplit('val')), 'train', seed);
}

function ensureGroupHasValAndTrain(members: SplittableTask[], { seed, valFraction }: SplitOptions): void {
  if (valFraction > 0 && !members.some(inSplit('val')))
    promote(promotionSource(members, 'train'), 'val', seed);
  if (!members.some(inSplit('train'))) promote(promotionSource(members, 'val'), 'train', seed);
}

/** Take from `preferred` while it keeps one member; otherwise from test; last resort the only one. */
function promotionSource(members: SplittableTask[], preferred: Split): SplittableTask[] {
  const fromPreferred = members.filter(inSplit(preferred));
  if (fromPreferred.length >= 2) return fromPreferred;
  const fromTest = members.filter(inSplit('test'));
  return fromTest.length > 0 ? fromTest : fromPreferred;
}

function promote(candidates: SplittableTask[], to: Split, seed: number): void {
  const chosen = smallestHash(candidates, seed);
  if (chosen) chosen.split = to;
}

function smallestHash<T extends SplittableTask>(candidates: readonly T[], seed: number): T | undefined {
  let best: { task: T; hash: bigint } | undefined;
  for (const task of candidates) {
    const hash = splitHash(seed, task.id);
    if (!best || hash < best.hash || (hash === best.hash && task.id < best.task.id)) best = { task, hash };
  }
  return best?.task;
}

/** Groups the assigned copies by the group key of their original task, in first-seen order. */
function groupRealTasks<T extends SplittableTask>(
  assigned: T[],
  originals: readonly T[],
  groupOf: (task: T) => string | readonly string[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  assigned.forEach((task, index) => {
    const original = originals[index];
    if (!original || !isReal(task)) return;
    const keys = groupOf(original);
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      const members = groups.get(key);
      if (members) members.push(task);
      else groups.set(key, [task]);
    }
  });
  return groups;
}

function isReal(task: SplittableTask): boolean {
  return task.origin !== 'dream';
}

function inSplit(split: Split): (task: SplittableTask) => boolean {
  return (task) => task.split === split;
}

/** Python's round(): halves go to the even neighbour, so cut points match the reference exactly. */
function pythonRound(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
