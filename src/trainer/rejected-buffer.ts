/**
 * The rejected-edit buffer as reflection sees it: what made validation scores worse (never again) and what
 * had no measurable effect (may come back when the same failures persist), each with its reason. Edits
 * pending a re-test are left out (they are being tried, not refused), and the buffer is capped: the most
 * harmful, then the most recent, first.
 */
import type { RejectedEditMemory } from '../backends/types.js';
import { madeHeldOutWorse, normalizeEditContent } from '../core/rejected-edit.js';
import type { Edit } from '../core/task.js';

/** At most this many edits of each list reach a reflection prompt. */
export const BUFFER_CAP = { worse: 12, noEffect: 8 } as const;

type EditIdentity = { target: string; op: string; content: string };
const keyOf = (e: EditIdentity): string => `${e.target}|${e.op}|${normalizeEditContent(e.content)}`;

/** Newest first; entries without a time keep their order after those with one. */
const byRecency = (a: RejectedEditMemory, b: RejectedEditMemory): number =>
  (b.at ?? -Infinity) - (a.at ?? -Infinity);

export function reflectionBuffer(
  rejected: RejectedEditMemory[],
  pending: EditIdentity[] = [],
  cap: { worse: number; noEffect: number } = BUFFER_CAP,
): RejectedEditMemory[] {
  const retesting = new Set(pending.map(keyOf));
  const shown = rejected.filter((r) => !retesting.has(keyOf(r)));
  const worse = shown
    .filter(madeHeldOutWorse)
    .sort((a, b) => a.delta - b.delta || byRecency(a, b))
    .slice(0, cap.worse);
  const noEffect = shown
    .filter((r) => !madeHeldOutWorse(r))
    .sort(byRecency)
    .slice(0, cap.noEffect);
  return [...worse, ...noEffect];
}

/** Edits that made the validation score worse before are never proposed again (the whole memory, uncapped). */
export function withoutRefused<E extends Edit>(edits: E[], rejected: RejectedEditMemory[]): E[] {
  const refused = new Set(rejected.filter(madeHeldOutWorse).map(keyOf));
  return edits.filter((e) => !refused.has(keyOf(e)));
}
