/**
 * SQuAD-style answer scoring for labelled datasets: exact match (hard) and token F1 (soft) after
 * normalisation (lower-case, ASCII punctuation removed, articles a/an/the removed, whitespace
 * collapsed). An answer wrapped in <answer>…</answer> is scored on what is inside the tags.
 */
import type { Score } from '../../core/task.js';

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/** The articles as whole words, with Python 3's Unicode word boundaries (JS's `\b` is ASCII only). */
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(PUNCTUATION, '').replace(ARTICLES, ' ').replace(/\s+/g, ' ').trim();
}

/** The text inside the last <answer>…</answer> pair, else the whole response. */
export function extractAnswer(response: string): string {
  const matches = [...response.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)];
  return matches.at(-1)?.[1] ?? response;
}

export function exactMatch(prediction: string, gold: string): number {
  return normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0;
}

/** Token-level F1 over normalised tokens; when either side is empty, 1 only if both are. */
export function tokenF1(prediction: string, gold: string): number {
  const pred = normalizeAnswer(prediction).split(' ').filter(Boolean);
  const ref = normalizeAnswer(gold).split(' ').filter(Boolean);
  if (pred.length === 0 || ref.length === 0) return pred.length === ref.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same++;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/** hard = exact match, soft = token F1 (the best over several accepted answers). */
export function qaJudge(answers: string[], response: string): Score {
  const predicted = extractAnswer(response);
  let hard = 0;
  let soft = 0;
  for (const gold of answers) {
    hard = Math.max(hard, exactMatch(predicted, gold));
    soft = Math.max(soft, tokenF1(predicted, gold));
  }
  return { hard, soft, rationale: `em=${hard}, f1=${soft.toFixed(4)}` };
}
