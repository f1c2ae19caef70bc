/**
 * Duplicates and near-duplicates among a document's editable units: two units whose quoted and code
 * terms are the same and whose words overlap by at least `NEAR` (Jaccard) say one thing twice. The
 * longer one (it says more) is kept, the other goes. Structure only: no word list of any language.
 */
import { unitContent, type Unit } from './units.js';

export const NEAR = 0.8;
const TERMS = /"[^"]*"|`[^`]*`|“[^”]*”/g;

function terms(s: string): string {
  return (s.match(TERMS) ?? [])
    .map((t) => t.toLowerCase())
    .sort()
    .join('\u0000');
}

function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== ''),
  );
}

export function nearDuplicate(a: string, b: string): boolean {
  if (terms(a) !== terms(b)) return false;
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return a.trim() === b.trim();
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared) >= NEAR;
}

/** The editable units to drop so that no two left are near-duplicates (indexes into `units`). */
export function redundantUnits(units: readonly Unit[]): number[] {
  const editable = units.flatMap((u, i) => (u.kind === 'kept' ? [] : [i]));
  const dropped = new Set<number>();
  for (const [n, i] of editable.entries()) {
    if (dropped.has(i)) continue;
    for (const j of editable.slice(n + 1)) {
      if (dropped.has(j)) continue;
      const a = unitContent(units[i] as Unit);
      const b = unitContent(units[j] as Unit);
      if (!nearDuplicate(a, b)) continue;
      // Keep the one that says more; on a tie the earlier (the user's order stands).
      if (b.length > a.length) {
        dropped.add(i);
        break;
      }
      dropped.add(j);
    }
  }
  return [...dropped].sort((x, y) => x - y);
}
