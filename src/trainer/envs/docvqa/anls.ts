/**
 * ANLS, DocVQA's metric (Biten et al. 2019): 1 minus the normalised Levenshtein distance between the
 * answer and the closest accepted answer (lower-cased, whitespace collapsed), 0 when that distance is
 * at least the threshold (0.5). Distances are over code points.
 */

export const ANLS_THRESHOLD = 0.5;

const normalize = (s: string): string => s.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');

export function levenshtein(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((current[j - 1] ?? 0) + 1, (previous[j] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The ANLS of one answer against one accepted answer. */
export function anlsOne(predicted: string, gold: string, threshold = ANLS_THRESHOLD): number {
  const p = Array.from(normalize(predicted));
  const g = Array.from(normalize(gold));
  if (p.length === 0 && g.length === 0) return 1;
  if (p.length === 0 || g.length === 0) return 0;
  const distance = levenshtein(p, g) / Math.max(p.length, g.length);
  return distance >= threshold ? 0 : 1 - distance;
}

/** The best ANLS over the accepted answers. */
export const anls = (predicted: string, golds: readonly string[], threshold = ANLS_THRESHOLD): number =>
  golds.reduce((best, g) => Math.max(best, anlsOne(predicted, g, threshold)), 0);

/** The reference's reading of a reply: between the last `<answer>` and the last `</answer>`, else the last line. */
export function docvqaAnswer(reply: string): string {
  const lower = reply.toLowerCase();
  const start = lower.lastIndexOf('<answer>');
  const end = lower.lastIndexOf('</answer>');
  if (start !== -1 && end > start) return reply.slice(start + '<answer>'.length, end).trim();
  const lines = reply
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? reply.trim();
}
