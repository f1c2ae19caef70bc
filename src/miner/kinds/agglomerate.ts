/**
 * Average-linkage clustering of sessions over two views (the request's words, the agent's actions),
 * in about linear time.
 *
 * The similarity of two clusters is the average, over every pair of their members, of
 * `textWeight · cos(text) + (1 − textWeight) · actions`. With unit vectors the average of the dot
 * products equals the dot product of the two clusters' sums divided by |A|·|B|, so a cluster only
 * keeps the sum of its members' vectors and any pair of clusters is scored exactly, however large.
 * Average linkage does not chain: two kinds that share a few sessions' words stay apart.
 *
 * Two clusters join only when both views agree at least a little (`minText`, `minAction`): a session
 * kind is a way of asking *and* a way of working. Sessions without any action (questions answered in
 * prose) stay one-offs, however alike their wording: "explain how X works" asked about two topics is
 * two questions. Only a corpus where almost no session recorded an action (an agent or an old store
 * that keeps no tool calls) is grouped by its requests alone, with `textOnlyThreshold`.
 *
 * A second pass joins groups that do the same work in other words: two groups (of two or more) whose
 * action centroids point the same way (`sameWorkCosine`) and whose request centroids share at least
 * a little (`sameWorkText`). Average linkage is small between two internally varied groups even when
 * their centres coincide ("give me the query for …" and "sql for …?" both running the same `duckdb`
 * command); the centroids' cosine is not.
 *
 * Candidates: each session's `neighbours` most similar sessions, found through an inverted index of
 * its features (a feature many sessions share is read only in a window of sessions near this one;
 * every feature still counts in every score). Merges go best-first from a heap; a merged cluster inherits its
 * parts' candidates. Deterministic: ties break by the lower index.
 */
import { addInto, dot, type Vector } from './vectors.js';

export interface AgglomerateOptions {
  /** Stop when the best average similarity is below this. */
  threshold: number;
  /** Weight of the text view (the actions get the rest). */
  textWeight: number;
  /** Least average text and action similarity for a merge. */
  minText: number;
  minAction: number;
  /** Average text similarity two clusters need when the corpus has (almost) no actions. */
  textOnlyThreshold: number;
  /** Below this share of sessions with actions, the corpus is grouped by its requests alone. */
  minActionShare: number;
  /** Second pass: least cosine of two groups' action centroids, and of their request centroids. */
  sameWorkCosine: number;
  sameWorkText: number;
  neighbours: number;
}

export const DEFAULT_AGGLOMERATE: AgglomerateOptions = {
  threshold: 0.1,
  textWeight: 0.5,
  minText: 0.05,
  minAction: 0.02,
  textOnlyThreshold: 0.3,
  minActionShare: 0.2,
  sameWorkCosine: 0.7,
  sameWorkText: 0.05,
  neighbours: 24,
};

interface ClusterState {
  members: number[];
  text: Vector;
  action: Vector;
  /** `text` and `action` are this cluster's own sums (not an input's vectors) and may be added to. */
  owned: boolean;
  stamp: number;
  alive: boolean;
  candidates: Set<number>;
}

/**
 * Groups of item indices (each ascending, groups ordered by their first index). Items only join
 * items of the same `partition` value.
 */
export function agglomerate(
  text: readonly Vector[],
  action: readonly Vector[],
  partition: readonly string[],
  options: Partial<AgglomerateOptions> = {},
): number[][] {
  const opts = { ...DEFAULT_AGGLOMERATE, ...options };
  const n = text.length;
  const withActions = action.filter((vector) => vector.size > 0).length;
  const textOnly = n > 0 && withActions < opts.minActionShare * n;
  const clusters: ClusterState[] = text.map((vector, i) => ({
    members: [i],
    // The input vectors themselves until the cluster first grows (copy on write: most never do).
    text: vector,
    action: action[i] ?? new Map<number, number>(),
    owned: false,
    stamp: 0,
    alive: true,
    candidates: new Set<number>(),
  }));
  const heap = new PairHeap();
  const score = (a: ClusterState, b: ClusterState): number => similarity(a, b, opts, textOnly);

  const neighbours = candidateNeighbours(text, action, partition, opts.neighbours);
  for (let i = 0; i < n; i++) {
    for (const j of neighbours[i] ?? []) {
      const a = clusters[i];
      const b = clusters[j];
      if (a === undefined || b === undefined) continue;
      a.candidates.add(j);
      b.candidates.add(i);
      if (i < j) pushPair(heap, i, j, a, b, score(a, b), textOnly ? opts.textOnlyThreshold : opts.threshold);
    }
  }

  for (;;) {
    const top = heap.pop();
    if (top === undefined) break;
    const a = clusters[top.a];
    const b = clusters[top.b];
    if (a === undefined || b === undefined || !a.alive || !b.alive) continue;
    if (a.stamp !== top.stampA || b.stamp !== top.stampB) continue;
    // Keep the larger cluster's state (fewer map updates); ties keep the lower index.
    const [keepIndex, dropIndex] =
      a.members.length > b.members.length || (a.members.length === b.members.length && top.a < top.b)
        ? [top.a, top.b]
        : [top.b, top.a];
    const keep = clusters[keepIndex] as ClusterState;
    const drop = clusters[dropIndex] as ClusterState;
    keep.members.push(...drop.members);
    grow(keep, drop);
    keep.stamp += 1;
    drop.alive = false;
    for (const c of drop.candidates) keep.candidates.add(c);
    keep.candidates.delete(keepIndex);
    keep.candidates.delete(dropIndex);
    for (const c of [...keep.candidates]) {
      const other = clusters[c];
      if (other === undefined || !other.alive) {
        keep.candidates.delete(c);
        continue;
      }
      other.candidates.delete(dropIndex);
      other.candidates.add(keepIndex);
      const [lo, hi] = keepIndex < c ? [keepIndex, c] : [c, keepIndex];
      const limit = textOnly ? opts.textOnlyThreshold : opts.threshold;
      pushPair(
        heap,
        lo,
        hi,
        clusters[lo] as ClusterState,
        clusters[hi] as ClusterState,
        score(keep, other),
        limit,
      );
    }
  }
  if (!textOnly) joinSameWork(clusters, partition, opts);
  return clusters
    .filter((c) => c.alive)
    .map((c) => c.members.sort((x, y) => x - y))
    .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
}

/**
 * The second pass (see the top of this file): best pair first, until no pair qualifies. Every pair
 * is scored once; a merge rescores only the pairs of the group that grew.
 */
function joinSameWork(
  clusters: ClusterState[],
  partition: readonly string[],
  opts: AgglomerateOptions,
): void {
  const groups = clusters.filter((c) => c.alive && c.members.length >= 2 && c.action.size > 0);
  const norm = (v: Vector): number => Math.sqrt(dot(v, v)) || 1;
  const norms = groups.map((g) => ({ text: norm(g.text), action: norm(g.action) }));
  const stamps = groups.map(() => 0);
  const heap = new PairHeap();
  const consider = (i: number, j: number): void => {
    const a = groups[i] as ClusterState;
    const b = groups[j] as ClusterState;
    if (!a.alive || !b.alive || partition[a.members[0] ?? 0] !== partition[b.members[0] ?? 0]) return;
    const na = norms[i] as { text: number; action: number };
    const nb = norms[j] as { text: number; action: number };
    const work = dot(a.action, b.action) / (na.action * nb.action);
    if (work < opts.sameWorkCosine) return;
    const words = dot(a.text, b.text) / (na.text * nb.text);
    if (words < opts.sameWorkText) return;
    heap.push({ sim: work, a: i, b: j, stampA: stamps[i] ?? 0, stampB: stamps[j] ?? 0 });
  };
  for (let i = 0; i < groups.length; i++) for (let j = i + 1; j < groups.length; j++) consider(i, j);
  for (;;) {
    const top = heap.pop();
    if (top === undefined) return;
    const a = groups[top.a] as ClusterState;
    const b = groups[top.b] as ClusterState;
    if (!a.alive || !b.alive || stamps[top.a] !== top.stampA || stamps[top.b] !== top.stampB) continue;
    const [keepAt, dropAt] = a.members.length >= b.members.length ? [top.a, top.b] : [top.b, top.a];
    const keep = groups[keepAt] as ClusterState;
    const drop = groups[dropAt] as ClusterState;
    keep.members.push(...drop.members);
    grow(keep, drop);
    drop.alive = false;
    stamps[keepAt] = (stamps[keepAt] ?? 0) + 1;
    norms[keepAt] = { text: norm(keep.text), action: norm(keep.action) };
    for (let c = 0; c < groups.length; c++) {
      if (c !== keepAt) consider(Math.min(c, keepAt), Math.max(c, keepAt));
    }
  }
}

/** Adds `drop`'s sums to `keep`'s (copying `keep`'s input vectors first). */
function grow(keep: ClusterState, drop: ClusterState): void {
  if (!keep.owned) {
    keep.text = new Map(keep.text);
    keep.action = new Map(keep.action);
    keep.owned = true;
  }
  addInto(keep.text, drop.text);
  addInto(keep.action, drop.action);
}

function similarity(a: ClusterState, b: ClusterState, opts: AgglomerateOptions, textOnly: boolean): number {
  const pairs = a.members.length * b.members.length;
  const text = dot(a.text, b.text) / pairs;
  if (textOnly) return text >= opts.textOnlyThreshold ? text : -1;
  if (text < opts.minText || a.action.size === 0 || b.action.size === 0) return -1;
  const actions = dot(a.action, b.action) / pairs;
  if (actions < opts.minAction) return -1;
  return opts.textWeight * text + (1 - opts.textWeight) * actions;
}

function pushPair(
  heap: PairHeap,
  a: number,
  b: number,
  ca: ClusterState,
  cb: ClusterState,
  sim: number,
  threshold: number,
): void {
  if (sim >= threshold) heap.push({ sim, a, b, stampA: ca.stamp, stampB: cb.stamp });
}

/**
 * Each item's most similar items of its partition (at most `k`), by the exact pair score over both
 * views, searched through an inverted index.
 */
function candidateNeighbours(
  text: readonly Vector[],
  action: readonly Vector[],
  partition: readonly string[],
  k: number,
): number[][] {
  const n = text.length;
  // A feature many sessions share is read only near the session (items are in corpus order, newest
  // first): enough to find its kind, and the search stays linear at any corpus size.
  const searchWindow = Math.min(Math.max(64, Math.ceil(8 * Math.sqrt(n))), MAX_SEARCH_WINDOW);
  const group = partitionIds(partition);
  const { offsets, items, values, itemLists, itemValues } = postingLists(text, action);
  const result: number[][] = [];
  const touched = new Float64Array(n);
  const seen: number[] = [];
  const best = new TopK(k);
  for (let i = 0; i < n; i++) {
    seen.length = 0;
    const own = group[i];
    const lists = itemLists[i] as Int32Array;
    const weights = itemValues[i] as Float64Array;
    for (let f = 0; f < lists.length; f++) {
      const list = lists[f] as number;
      const value = weights[f] as number;
      let from = offsets[list] as number;
      let to = offsets[list + 1] as number;
      if (to - from < 2) continue;
      // A long list is read in a window of `searchWindow` items around `i` (items are ascending).
      if (to - from > searchWindow) {
        const start = from;
        from = Math.min(
          Math.max(start, lowerBound(items, i, from, to) - (searchWindow >> 1)),
          to - searchWindow,
        );
        to = from + searchWindow;
      }
      for (let p = from; p < to; p++) {
        const j = items[p] as number;
        if (j === i || group[j] !== own) continue;
        if (touched[j] === 0) seen.push(j);
        touched[j] = (touched[j] as number) + value * (values[p] as number);
      }
    }
    best.clear();
    for (const j of seen) best.offer(j, touched[j] as number);
    for (const j of seen) touched[j] = 0;
    result.push(best.items());
  }
  return result;
}

const MAX_SEARCH_WINDOW = 128;

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
 * offsets[l + 1])`, ascending, with their values), and each item's lists with its own values.
 */
function postingLists(
  text: readonly Vector[],
  action: readonly Vector[],
): {
  offsets: Int32Array;
  items: Int32Array;
  values: Float64Array;
  itemLists: Int32Array[];
  itemValues: Float64Array[];
} {
  // Text feature `id` is key 2·id, action feature `id` is 2·id + 1.
  const listOf = new Map<number, number>();
  const counts: number[] = [];
  const itemLists: Int32Array[] = [];
  const itemValues: Float64Array[] = [];
  text.forEach((vector, item) => {
    const other = action[item];
    const size = vector.size + (other?.size ?? 0);
    const lists = new Int32Array(size);
    const weights = new Float64Array(size);
    let f = 0;
    const add = (view: 0 | 1, v: Vector | undefined): void => {
      for (const [id, value] of v ?? []) {
        const key = 2 * id + view;
        let list = listOf.get(key);
        if (list === undefined) {
          list = counts.length;
          listOf.set(key, list);
          counts.push(0);
        }
        counts[list] = (counts[list] as number) + 1;
        lists[f] = list;
        weights[f] = value;
        f += 1;
      }
    };
    add(0, vector);
    add(1, other);
    itemLists.push(lists);
    itemValues.push(weights);
  });
  const offsets = new Int32Array(counts.length + 1);
  for (let l = 0; l < counts.length; l++) offsets[l + 1] = (offsets[l] as number) + (counts[l] as number);
  const total = offsets[counts.length] as number;
  const items = new Int32Array(total);
  const values = new Float64Array(total);
  const fill = Int32Array.from(offsets.subarray(0, counts.length));
  itemLists.forEach((lists, item) => {
    const weights = itemValues[item] as Float64Array;
    for (let f = 0; f < lists.length; f++) {
      const list = lists[f] as number;
      const at = fill[list] as number;
      items[at] = item;
      values[at] = weights[f] as number;
      fill[list] = at + 1;
    }
  });
  return { offsets, items, values, itemLists, itemValues };
}

/** Each item's partition as a small integer (equal strings, equal ids). */
function partitionIds(partition: readonly string[]): Int32Array {
  const ids = new Map<string, number>();
  const out = new Int32Array(partition.length);
  partition.forEach((p, i) => {
    let id = ids.get(p);
    if (id === undefined) {
      id = ids.size;
      ids.set(p, id);
    }
    out[i] = id;
  });
  return out;
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

interface PairEntry {
  sim: number;
  a: number;
  b: number;
  stampA: number;
  stampB: number;
}

/**
 * A max-heap of candidate pairs (ties: lower `a`, then lower `b`, first), held in typed arrays: a
 * night pushes hundreds of thousands of pairs, and objects for each would be garbage to collect.
 */
class PairHeap {
  private sim = new Float64Array(1024);
  private a = new Int32Array(1024);
  private b = new Int32Array(1024);
  private stampA = new Int32Array(1024);
  private stampB = new Int32Array(1024);
  private size = 0;

  push(entry: PairEntry): void {
    if (this.size === this.sim.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.beforeAt(entry.sim, entry.a, entry.b, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.set(i, entry);
  }

  pop(): PairEntry | undefined {
    if (this.size === 0) return undefined;
    const top = this.get(0);
    this.size -= 1;
    if (this.size === 0) return top;
    const last = this.get(this.size);
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = -1;
      if (left < this.size && !this.beforeAt(last.sim, last.a, last.b, left)) best = left;
      if (right < this.size && this.firstOf(right, best === -1 ? null : best, last)) best = right;
      if (best === -1) break;
      this.move(best, i);
      i = best;
    }
    this.set(i, last);
    return top;
  }

  /** True when the entry at `right` comes before both `last` and (if any) the entry at `other`. */
  private firstOf(right: number, other: number | null, last: PairEntry): boolean {
    if (this.beforeAt(last.sim, last.a, last.b, right)) return false;
    if (other === null) return true;
    return this.beforeAt(this.sim[right] as number, this.a[right] as number, this.b[right] as number, other);
  }

  /** True when (sim, a, b) comes before the entry at `at`. */
  private beforeAt(sim: number, a: number, b: number, at: number): boolean {
    const s = this.sim[at] as number;
    if (sim !== s) return sim > s;
    const x = this.a[at] as number;
    return a < x || (a === x && b < (this.b[at] as number));
  }

  private get(at: number): PairEntry {
    return {
      sim: this.sim[at] as number,
      a: this.a[at] as number,
      b: this.b[at] as number,
      stampA: this.stampA[at] as number,
      stampB: this.stampB[at] as number,
    };
  }

  private set(at: number, entry: PairEntry): void {
    this.sim[at] = entry.sim;
    this.a[at] = entry.a;
    this.b[at] = entry.b;
    this.stampA[at] = entry.stampA;
    this.stampB[at] = entry.stampB;
  }

  private move(from: number, to: number): void {
    this.sim[to] = this.sim[from] as number;
    this.a[to] = this.a[from] as number;
    this.b[to] = this.b[from] as number;
    this.stampA[to] = this.stampA[from] as number;
    this.stampB[to] = this.stampB[from] as number;
  }

  private grow(): void {
    const size = this.sim.length * 2;
    const widen = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.sim = widen(this.sim, (k) => new Float64Array(k));
    this.a = widen(this.a, (k) => new Int32Array(k));
    this.b = widen(this.b, (k) => new Int32Array(k));
    this.stampA = widen(this.stampA, (k) => new Int32Array(k));
    this.stampB = widen(this.stampB, (k) => new Int32Array(k));
  }
}
