/** "Did you mean …?" for a misspelt key or name: the nearest known one, when it is near enough. */

/** Edit distance (insert, delete, substitute, swap two neighbours: one edit each). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = d;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known name closest to `word` (case ignored), or undefined when none is within about a third of
 * its length: a suggestion that shares nothing with what was typed helps nobody.
 */
export function closestName(word: string, known: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** ` (did you mean "x"?)` or nothing. */
export function didYouMean(word: string, known: readonly string[]): string {
  const name = closestName(word, known);
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}
