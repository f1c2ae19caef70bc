/**
 * The candidate search of `agglomerate.ts`: each session's most similar sessions, through an inverted
 * index of both views' features held in flat typed arrays (20,000 sessions touch tens of millions of
 * postings).
 */
import type { Vector } from './vectors.js';

/**
 * Each item's most similar items (at most `k`; the caller passes one partition), by the exact pair score over both
 * views, searched through an inverted index.
 */
export function candidateNeighbours(
  text: readonly Vector[],
  action: readonly Vector[],
  k: number,
): number[][] {
  const n = text.length;
  // A feature many sessions share is read only near the session (items are in corpus order, newest
  // first): enough to find its kind, and the search stays linear at any corpus size.
  const { offsets, items, values, itemStart, itemLists, itemValues } = postingLists(text, action);
  const result: number[][] = [];
  const touched = new Float64Array(n);
  // The items this one's lists reached (an array that is reused: a fresh one per item was most of
  // the search's garbage).
  const seen = new Int32Array(n);
  const best = new TopK(k);
  for (let i = 0; i < n; i++) {
    let reached = 0;
    for (let f = itemStart[i] as number, last = itemStart[i + 1] as number; f < last; f++) {
      const list = itemLists[f] as number;
      const value = itemValues[f] as number;
      let from = offsets[list] as number;
      let to = offsets[list + 1] as number;
      if (to - from < 2) continue;
      // A long list is read in a window of `SEARCH_WINDOW` items around `i` (items are ascending).
      if (to - from > SEARCH_WINDOW) {
        const start = from;
        from = Math.min(
          Math.max(start, lowerBound(items, i, from, to) - (SEARCH_WINDOW >> 1)),
          to - SEARCH_WINDOW,
        );
        to = from + SEARCH_WINDOW;
      }
      for (let p = from; p < to; p++) {
        const j = items[p] as number;
        if (j === i) continue;
        if (touched[j] === 0) seen[reached++] = j;
        touched[j] = (touched[j] as number) + value * (values[p] as number);
      }
    }
    best.clear();
    for (let r = 0; r < reached; r++) {
      const j = seen[r] as number;
      best.offer(j, touched[j] as number);
      touched[j] = 0;
    }
    result.push(best.items());
  }
  return result;
}

/**
 * Sessions read around this one in a feature's long list: a kind recurs, so its sessions are near
 * each other in time and a window of this size holds many of them (at 128 the search found the
 * same groups, at twice the cost).
 */
const SEARCH_WINDOW = 64;

/** The first position in `sorted[from, to)` holding a value ≥ `value`. */
function lowerBound(sorted: Int32Array, value: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Both views' features as posting lists in flat arrays (list `l` holds `items[offsets[l] ..
 * offsets[l + 1])`, ascending, with their values), and each item's lists with its own values
 * (item `i`'s are at `itemStart[i] .. itemStart[i + 1]`).
 */
function postingLists(
  text: readonly Vector[],
  action: readonly Vector[],
): {
  offsets: Int32Array;
  items: Int32Array;
  values: Float64Array;
  itemStart: Int32Array;
  itemLists: Int32Array;
  itemValues: Float64Array;
} {
  const n = text.length;
  const itemStart = new Int32Array(n + 1);
  for (let item = 0; item < n; item++)
    itemStart[item + 1] = (itemStart[item] as number) + (text[item]?.size ?? 0) + (action[item]?.size ?? 0);
  const total = itemStart[n] as number;
  const itemLists = new Int32Array(total);
  const itemValues = new Float64Array(total);
  // Text feature `id` is key 2·id, action feature `id` is 2·id + 1.
  const listOf = new Map<number, number>();
  const counts: number[] = [];
  let f = 0;
  const add = (view: 0 | 1, vector: Vector | undefined): void => {
    for (const [id, value] of vector ?? []) {
      const key = 2 * id + view;
      let list = listOf.get(key);
      if (list === undefined) {
        list = counts.length;
        listOf.set(key, list);
        counts.push(0);
      }
      counts[list] = (counts[list] as number) + 1;
      itemLists[f] = list;
      itemValues[f] = value;
      f += 1;
    }
  };
  for (let item = 0; item < n; item++) {
    add(0, text[item]);
    add(1, action[item]);
  }
  const offsets = new Int32Array(counts.length + 1);
  for (let l = 0; l < counts.length; l++) offsets[l + 1] = (offsets[l] as number) + (counts[l] as number);
  const items = new Int32Array(total);
  const values = new Float64Array(total);
  const fill = Int32Array.from(offsets.subarray(0, counts.length));
  for (let item = 0; item < n; item++) {
    for (let g = itemStart[item] as number, last = itemStart[item + 1] as number; g < last; g++) {
      const list = itemLists[g] as number;
      const at = fill[list] as number;
      items[at] = item;
      values[at] = itemValues[g] as number;
      fill[list] = at + 1;
    }
  }
  return { offsets, items, values, itemStart, itemLists, itemValues };
}

/** The `k` best (item, score) offers, highest score first, ties by the lower item. */
class TopK {
  private readonly k: number;
  private readonly item: Int32Array;
  private readonly score: Float64Array;
  private size = 0;
  constructor(k: number) {
    this.k = k;
    this.item = new Int32Array(k + 1);
    this.score = new Float64Array(k + 1);
  }

  clear(): void {
    this.size = 0;
  }

  offer(item: number, score: number): void {
    const { k } = this;
    if (k <= 0) return;
    if (this.size === k && !this.above(item, score, this.size - 1)) return;
    let at = this.size < k ? this.size++ : k - 1;
    while (at > 0 && this.above(item, score, at - 1)) {
      this.item[at] = this.item[at - 1] as number;
      this.score[at] = this.score[at - 1] as number;
      at -= 1;
    }
    this.item[at] = item;
    this.score[at] = score;
  }

  items(): number[] {
    return Array.from(this.item.subarray(0, this.size));
  }

  /** True when (item, score) ranks before the offer held at `at`. */
  private above(item: number, score: number, at: number): boolean {
    const other = this.score[at] as number;
    return score > other || (score === other && item < (this.item[at] as number));
  }
}
