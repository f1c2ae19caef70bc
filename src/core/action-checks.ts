/**
 * The rule-check ops judged on what an answer does rather than on what it says: the commands it runs
 * (`runs`), the paths it writes, edits or deletes (`edits`) and the text it writes into files
 * (`writes`), each with its negative. "Don't edit `dist/index.d.ts`, it's build output" says the path
 * and edits nothing: it passes `not_edits "dist/"`, where a text check would fail it.
 *
 * A check's forms are its `arg` and its `any_of` alternatives (`vitest --run`, `vitest run`): a
 * positive check passes when any form is there, a negative one fails when any form is there.
 */
import type { Check } from './task.js';
import { forbiddenTerm, MENTIONS, NOT_MENTIONS } from './negative-check.js';

export const RUNS = 'runs';
export const NOT_RUNS = 'not_runs';
export const EDITS = 'edits';
export const NOT_EDITS = 'not_edits';
export const WRITES = 'writes';
export const NOT_WRITES = 'not_writes';

/** Action ops that ask for an action. */
export const POSITIVE_ACTION_OPS: ReadonlySet<string> = new Set([RUNS, EDITS, WRITES]);
/** Action ops that forbid one: an answer that does nothing of the kind passes (it kept the rule). */
export const NEGATIVE_ACTION_OPS: ReadonlySet<string> = new Set([NOT_RUNS, NOT_EDITS, NOT_WRITES]);
export const ACTION_OPS: ReadonlySet<string> = new Set([...POSITIVE_ACTION_OPS, ...NEGATIVE_ACTION_OPS]);

/** Ops that read `any_of`: the action ops and the plain text-term ops. */
export const ANY_OF_OPS: ReadonlySet<string> = new Set([
  ...ACTION_OPS,
  'contains',
  'not_contains',
  MENTIONS,
  NOT_MENTIONS,
]);

/** The check's term and its alternatives, non-blank, each once. */
export function checkForms(check: Check): string[] {
  const forms = [check.arg === undefined ? '' : String(check.arg), ...(check.any_of ?? [])];
  return [...new Set(forms.filter((form) => form.trim() !== ''))];
}

/** The term a check asks the answer to say or do (`contains`, `mentions`, `runs`, `edits`, `writes`), or null. */
export function usedTerm(check: Check): string | null {
  const asks = check.op === 'contains' || check.op === MENTIONS || POSITIVE_ACTION_OPS.has(check.op);
  return asks && check.arg !== undefined && String(check.arg) !== '' ? String(check.arg) : null;
}

/** The term a check forbids: the word-bounded negative text checks and the negative action ops. */
export function avoidedTerm(check: Check): string | null {
  if (NEGATIVE_ACTION_OPS.has(check.op))
    return check.arg !== undefined && String(check.arg) !== '' ? String(check.arg) : null;
  return forbiddenTerm(check);
}

/** The action op of the same kind with the other sign (`runs` ↔ `not_runs`), or null. */
export function oppositeActionOp(op: string): string | null {
  if (POSITIVE_ACTION_OPS.has(op)) return `not_${op}`;
  if (NEGATIVE_ACTION_OPS.has(op)) return op.slice('not_'.length);
  return null;
}
