/**
 * LiveMathematicianBench's multiple-choice items: the choices as the monthly files give them (a list of
 * `{label, text}` or of strings, or an object label → text), shuffled per item with a fixed seed and
 * relabelled A, B, C…, and the label a reply chose.
 */
import { sha256Hex } from '../../../core/hash.js';
import { shuffled } from '../../../core/rng.js';
import { finalAnswer } from '../shared/answer-tags.js';

export interface Choice {
  label: string;
  text: string;
}

export const CHOICE_LABELS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

/** A label as written ("b.", " C)") in its canonical form ("B", "C"). */
export const normalizeLabel = (text: string): string =>
  text
    .trim()
    .toUpperCase()
    .replace(/[.):]+$/, '');

const asText = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';

export function readChoices(raw: unknown): Choice[] {
  if (Array.isArray(raw)) {
    return raw
      .map((c, i) => {
        const fallback = CHOICE_LABELS[i] ?? String(i + 1);
        if (c !== null && typeof c === 'object') {
          const o = c as Record<string, unknown>;
          return { label: asText(o.label) || fallback, text: asText(o.text) || asText(o.content) };
        }
        return { label: fallback, text: asText(c) };
      })
      .filter((c) => c.text !== '');
  }
  if (raw !== null && typeof raw === 'object') {
    return Object.entries(raw as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, text]) => ({ label: label.trim(), text: asText(text) }))
      .filter((c) => c.text !== '');
  }
  return [];
}

/**
 * The choices in an order fixed by the seed and the item id (the same in every epoch and run), relabelled
 * by position, and the label the correct choice now has.
 */
export function shuffleChoices(
  choices: readonly Choice[],
  correct: string,
  itemId: string,
  seed: number,
): { choices: Choice[]; correct: string } {
  const order = shuffled(choices, Number.parseInt(sha256Hex(`${seed}:${itemId}`).slice(0, 12), 16));
  let label = correct;
  const relabelled = order.map((c, i) => {
    const next = CHOICE_LABELS[i] ?? String(i + 1);
    if (normalizeLabel(c.label) === correct) label = next;
    return { label: next, text: c.text };
  });
  return { choices: relabelled, correct: label };
}

/**
 * The label a reply chose. As the reference reads it: the final answer (tags, else the last line) when
 * it is a label, or a choice's whole text, or starts with a label; then, where that finds none, the
 * answer stripped of wrapping marks ("(B)", "**B**"), or the one capital label standing alone in it.
 * "" when no label can be read.
 */
export function chosenLabel(reply: string, choices: readonly Choice[]): string {
  const answer = finalAnswer(reply);
  const labels = new Set(choices.map((c) => normalizeLabel(c.label)));
  const label = normalizeLabel(answer);
  if (labels.has(label)) return label;
  const byText = choices.find((c) => c.text.toLowerCase() === answer.toLowerCase());
  if (byText) return normalizeLabel(byText.label);
  const first = normalizeLabel(answer.split(/\s+/)[0] ?? '');
  if (labels.has(first)) return first;
  const unwrapped = normalizeLabel(answer.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
  if (labels.has(unwrapped)) return unwrapped;
  const standing = new Set(
    [...answer.matchAll(/(?<![\p{L}\p{N}])([A-Z])(?![\p{L}\p{N}])/gu)]
      .map((m) => m[1] ?? '')
      .filter((l) => labels.has(l)),
  );
  return standing.size === 1 ? ([...standing][0] ?? '') : '';
}
