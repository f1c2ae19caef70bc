/**
 * The part of a Treasury Bulletin the target is shown: a whole bulletin runs to hundreds of thousands of
 * characters, so it is cut into passages (paragraphs merged up to a size) and the passages that share
 * the most rare terms with the question (idf over the bulletin's own passages: no word list) are kept,
 * in document order, up to a character budget. A bulletin within the budget is shown whole.
 */

const PASSAGE_CHARS = 1500;

const terms = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+(?:\.\d+)?/gu) ?? [];

function passagesOf(doc: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const para of doc.split(/\n\s*\n/)) {
    if (current !== '' && current.length + para.length > PASSAGE_CHARS) {
      out.push(current);
      current = '';
    }
    current = current === '' ? para : `${current}\n\n${para}`;
  }
  if (current.trim() !== '') out.push(current);
  return out;
}

export function relevantText(doc: string, question: string, budget: number): string {
  if (doc.length <= budget) return doc;
  const passages = passagesOf(doc);
  const sets = passages.map((p) => new Set(terms(p)));
  const asked = [...new Set(terms(question))];
  const idf = new Map(
    asked.map((t) => [t, Math.log((passages.length + 1) / (1 + sets.filter((s) => s.has(t)).length))]),
  );
  const ranked = passages
    .map((p, i) => ({
      i,
      score: asked.reduce((sum, t) => sum + (sets[i]?.has(t) ? (idf.get(t) ?? 0) : 0), 0),
    }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const kept: number[] = [];
  let used = 0;
  for (const { i } of ranked) {
    const size = (passages[i]?.length ?? 0) + 5;
    if (used + size > budget) continue;
    kept.push(i);
    used += size;
  }
  if (kept.length === 0) return `${doc.slice(0, budget)}\n[...]`;
  return kept
    .sort((a, b) => a - b)
    .map((i) => passages[i])
    .join('\n[...]\n');
}
