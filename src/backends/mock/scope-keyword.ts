/**
 * The keyword a mock rule is scoped to: a word every failing task's wording shares, so the rule
 * reaches the same recurring task on other wordings and leaves unrelated tasks alone.
 */
import { FILLER_WORDS } from '../../core/filler-words.js';

function words(intent: string): string[] {
  const withoutCode = intent.replace(/`[^`]*`/g, ' ');
  return (withoutCode.toLowerCase().match(/[a-z][a-z0-9-]*/g) ?? []).filter(
    (w) => w.length >= 3 && !FILLER_WORDS.has(w),
  );
}

/** The first word of the first intent that all intents share ('' when they share none). */
export function scopeKeyword(intents: string[]): string {
  const [first, ...rest] = intents;
  if (first === undefined) return '';
  const others = rest.map((i) => new Set(words(i)));
  return words(first).find((w) => others.every((set) => set.has(w))) ?? '';
}
