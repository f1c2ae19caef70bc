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
 * its features (features held by more than `maxPostings` sessions are left out of the search only;
 * they still count in every score). Merges go best-first from a heap; a merged cluster inherits its
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
    text: new Map(vector),
    action: new Map(action[i] ?? new Map<number, number>()),
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
    addInto(keep.text, drop.text);
    addInto(keep.action, drop.action);
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

/** The second pass (see the top of this file): best pair first, until no pair qualifies. */
function joinSameWork(
  clusters: ClusterState[],
  partition: readonly string[],
  opts: AgglomerateOptions,
): void {
  const groups = clusters.filter((c) => c.alive && c.members.length >= 2 && c.action.size > 0);
  const norm = (v: ReadonlyMap<number, number>): number => Math.sqrt(dot(v as Vector, v as Vector)) || 1;
  for (;;) {
    let best: { a: ClusterState; b: ClusterState; score: number } | null = null;
    for (let i = 0; i < groups.length; i++) {
      const a = groups[i] as ClusterState;
      if (!a.alive) continue;
      for (let j = i + 1; j < groups.length; j++) {
        const b = groups[j] as ClusterState;
        if (!b.alive || partition[a.members[0] ?? 0] !== partition[b.members[0] ?? 0]) continue;
        const work = dot(a.action, b.action) / (norm(a.action) * norm(b.action));
        if (work < opts.sameWorkCosine) continue;
        const words = dot(a.text, b.text) / (norm(a.text) * norm(b.text));
        if (words < opts.sameWorkText) continue;
        if (best === null || work > best.score) best = { a, b, score: work };
      }
    }
    if (best === null) return;
    const [keep, drop] = best.a.members.length >= best.b.members.length ? [best.a, best.b] : [best.b, best.a];
    keep.members.push(...drop.members);
    addInto(keep.text, drop.text);
    addInto(keep.action, drop.action);
    drop.alive = false;
  }
}

function similarity(a: ClusterState, b: ClusterState, opts: AgglomerateOptions, textOnly: boolean): number {
  const pairs = a.members.length * b.members.length;
  const text = dot(a.text, b.text) / pairs;
  if (textOnly) return text >= opts.textOnlyThreshold ? text : -1;
  if (a.action.size === 0 || b.action.size === 0) return -1;
  const actions = dot(a.action, b.action) / pairs;
  if (text < opts.minText || actions < opts.minAction) return -1;
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
  const maxPostings = Math.max(64, Math.ceil(8 * Math.sqrt(n)));
  // Posting lists by feature: text feature `id` is key 2·id, action feature `id` is 2·id + 1.
  const postings = new Map<number, { items: number[]; values: number[] }>();
  const index = (view: 0 | 1, vectors: readonly Vector[]): void => {
    vectors.forEach((vector, item) => {
      for (const [id, value] of vector) {
        const key = 2 * id + view;
        let list = postings.get(key);
        if (list === undefined) {
          list = { items: [], values: [] };
          postings.set(key, list);
        }
        list.items.push(item);
        list.values.push(value);
      }
    });
  };
  index(0, text);
  index(1, action);
  const result: number[][] = [];
  const touched = new Float64Array(n);
  const seen: number[] = [];
  for (let i = 0; i < n; i++) {
    seen.length = 0;
    const visit = (view: 0 | 1, vector: Vector | undefined): void => {
      for (const [id, value] of vector ?? []) {
        const list = postings.get(2 * id + view);
        if (list === undefined || list.items.length > maxPostings) continue;
        const { items, values } = list;
        for (let p = 0; p < items.length; p++) {
          const j = items[p] ?? i;
          if (j === i || partition[j] !== partition[i]) continue;
          if (touched[j] === 0) seen.push(j);
          touched[j] = (touched[j] ?? 0) + value * (values[p] ?? 0);
        }
      }
    };
    visit(0, text[i]);
    visit(1, action[i]);
    const ranked = seen
      .map((j) => ({ j, partial: touched[j] ?? 0 }))
      .sort((x, y) => y.partial - x.partial || x.j - y.j)
      .slice(0, k)
      .map(({ j }) => j);
    for (const j of seen) touched[j] = 0;
    result.push(ranked);
  }
  return result;
}

interface PairEntry {
  sim: number;
  a: number;
  b: number;
  stampA: number;
  stampB: number;
}

/** A max-heap of candidate pairs (ties: lower `a`, then lower `b`, first). */
class PairHeap {
  private readonly items: PairEntry[] = [];

  push(entry: PairEntry): void {
    const items = this.items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i] as PairEntry, items[parent] as PairEntry)) break;
      [items[i], items[parent]] = [items[parent] as PairEntry, items[i] as PairEntry];
      i = parent;
    }
  }

  pop(): PairEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < items.length && before(items[left] as PairEntry, items[best] as PairEntry)) best = left;
      if (right < items.length && before(items[right] as PairEntry, items[best] as PairEntry)) best = right;
      if (best === i) break;
      [items[i], items[best]] = [items[best] as PairEntry, items[i] as PairEntry];
      i = best;
    }
    return top;
  }
}

function before(x: PairEntry, y: PairEntry): boolean {
  return x.sim > y.sim || (x.sim === y.sim && (x.a < y.a || (x.a === y.a && x.b < y.b)));
}
