/**
 * Opt-in "dreaming" (all off by default): synthetic variants of train tasks, and several rollouts per
 * train task so reflection can contrast a good attempt with a bad one. Variants never reach val or test.
 */
import { FILLER_WORDS } from '../core/filler-words.js';
import type { TaskRecord } from '../core/task.js';

const VARIANT_TEMPLATES = ['(quick one) {q}', 'Please handle this request: {q}', 'For the daily report: {q}'];

/** `factor` wrapped variants of every real train task, train split only, ids `<id>_dream<k>`. */
export function dreamVariants(tasks: readonly TaskRecord[], factor: number): TaskRecord[] {
  if (factor <= 0) return [];
  const out: TaskRecord[] = [];
  for (const task of tasks) {
    if (task.split !== 'train' || task.origin !== 'real') continue;
    for (let k = 0; k < factor; k++) {
      const template = VARIANT_TEMPLATES[k % VARIANT_TEMPLATES.length] ?? '{q}';
      out.push({
        ...task,
        id: `${task.id}_dream${k}`,
        intent: template.replace('{q}', task.intent),
        tags: [...task.tags, 'dream'],
        split: 'train',
        origin: 'dream',
        derived_from: task.id,
      });
    }
  }
  return out;
}

const words = (s: string): Set<string> =>
  new Set((s.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((w) => !FILLER_WORDS.has(w)));

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Associative recall: from `archive` (older tasks of the project that tonight did not select), the `k`
 * most similar to tonight's train tasks (Jaccard on words), each once, joined as train-only copies.
 */
export function recallSimilar(
  tonight: readonly TaskRecord[],
  archive: readonly TaskRecord[],
  k: number,
): TaskRecord[] {
  if (k <= 0) return [];
  const train = tonight.filter((t) => t.split === 'train').map((t) => words(t.intent));
  const taken = new Set(tonight.map((t) => t.id));
  const scored = archive
    .filter((t) => !taken.has(t.id))
    .map((t) => {
      const w = words(t.intent);
      return { task: t, sim: Math.max(0, ...train.map((x) => jaccard(x, w))) };
    })
    .filter((s) => s.sim > 0)
    .sort((a, b) => b.sim - a.sim || (a.task.id < b.task.id ? -1 : 1));
  const seen = new Set<string>();
  const out: TaskRecord[] = [];
  for (const { task } of scored) {
    if (seen.has(task.id)) continue;
    seen.add(task.id);
    out.push({
      ...task,
      id: `recall:${task.id}`,
      tags: [...task.tags, 'recall'],
      split: 'train',
      derived_from: task.id,
    });
    if (out.length >= k) break;
  }
  return out;
}
