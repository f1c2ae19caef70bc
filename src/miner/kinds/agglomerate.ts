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
 * parts' candidates. Each partition is clustered on its own. Deterministic: ties break by the lower index.
 */
import { candidateNeighbours } from './candidates.js';
import { ClusterSums, DensePool, SparseArena } from './cluster-sums.js';
import { LinkGraph } from './link-graph.js';
import { coherentGroups, MergeTree } from './coherence.js';
import { PairHeap, type PairEntry } from './pair-heap.js';
import type { Vector } from './vectors.js';

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
  /** Its node in the merge tree (`MergeTree`): the item for a single session. */
  node: number;
  text: ClusterSums;
  action: ClusterSums;
  stamp: number;
  alive: boolean;
}

interface Pools {
  text: DensePool;
  action: DensePool;
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
  marks?: ReadonlyArray<readonly number[]>,
): number[][] {
  const opts = { ...DEFAULT_AGGLOMERATE, ...options };
  const n = text.length;
  const withActions = action.filter((vector) => vector.size > 0).length;
  const textOnly = n > 0 && withActions < opts.minActionShare * n;
  const byPartition = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = partition[i] ?? '';
    const indices = byPartition.get(key);
    if (indices === undefined) byPartition.set(key, [i]);
    else indices.push(i);
  }
  const groups: number[][] = [];
  for (const indices of byPartition.values()) {
    const tree = new MergeTree(indices.length);
    const local = clusterPartition(
      indices.map((i) => text[i] ?? new Map<number, number>()),
      indices.map((i) => action[i] ?? new Map<number, number>()),
      opts,
      textOnly,
      tree,
    );
    const split =
      marks === undefined
        ? local.map((g) => g.members)
        : coherentGroups(
            local,
            tree,
            indices.map((i) => marks[i] ?? []),
          );
    for (const group of split) groups.push(group.map((l) => indices[l] as number));
  }
  return groups.map((g) => g.sort((x, y) => x - y)).sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
}

/** Average linkage over one partition's items (local indices). */
function clusterPartition(
  text: readonly Vector[],
  action: readonly Vector[],
  opts: AgglomerateOptions,
  textOnly: boolean,
  tree: MergeTree,
): Array<{ members: number[]; node: number }> {
  const n = text.length;
  const texts = new SparseArena(text);
  const actions = new SparseArena(action);
  const clusters: ClusterState[] = text.map((vector, i) => ({
    members: [i],
    text: new ClusterSums(vector, texts),
    action: new ClusterSums(action[i] ?? new Map<number, number>(), actions),
    node: i,
    stamp: 0,
    alive: true,
  }));
  const pools: Pools = { text: new DensePool(texts.width), action: new DensePool(actions.width) };
  const graph = new LinkGraph(n);
  const heap = new PairHeap();

  const neighbours = candidateNeighbours(text, action, opts.neighbours);
  const limit = textOnly ? opts.textOnlyThreshold : opts.threshold;
  // The heap holds each cluster's best link, pushed when the cluster last changed. A merge changes
  // only the pairs of the cluster that grew, and that cluster's best is pushed anew; an entry whose
  // other end has changed since is an upper bound of nothing certain, so it is re-scored when it
  // comes to the top. The first entry that comes up current is the best pair of all.
  const pushBest = (i: number): void => {
    const a = clusters[i] as ClusterState;
    const { neighbours: ends, links } = graph.live(i);
    let best = -1;
    let bestSim = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < links.length; k++) {
      const c = ends[k] as number;
      const link = links[k] as number;
      const b = clusters[c] as ClusterState;
      const sim = similarity(graph.text[link] as number, graph.action[link] as number, a, b, opts, textOnly);
      if (sim > bestSim || (sim === bestSim && c < best)) {
        bestSim = sim;
        best = c;
      }
    }
    if (best >= 0 && bestSim >= limit)
      heap.push(bestSim, i, best, a.stamp, (clusters[best] as ClusterState).stamp);
  };
  // One link per pair: `linked[j] === i + 1` while item i's links are made and j already has one.
  const linked = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const a = clusters[i] as ClusterState;
    const existing = graph.live(i).neighbours;
    for (const j of existing) linked[j] = i + 1;
    for (const j of neighbours[i] ?? []) {
      if (linked[j] === i + 1) continue;
      linked[j] = i + 1;
      const b = clusters[j] as ClusterState;
      graph.add(i, j, ClusterSums.dot(a.text, b.text), ClusterSums.dot(a.action, b.action));
    }
  }
  for (let i = 0; i < n; i++) pushBest(i);

  const top: PairEntry = { sim: 0, a: 0, b: 0, stampA: 0, stampB: 0 };
  while (heap.pop(top)) {
    const a = clusters[top.a];
    const b = clusters[top.b];
    // A cluster that grew since has a newer entry; one whose best end changed is scored again.
    if (a === undefined || b === undefined || !a.alive || a.stamp !== top.stampA) continue;
    if (!b.alive || b.stamp !== top.stampB) {
      pushBest(top.a);
      continue;
    }
    // Keep the larger cluster's state (fewer list updates); ties keep the lower index.
    const [keepIndex, dropIndex] =
      a.members.length > b.members.length || (a.members.length === b.members.length && top.a < top.b)
        ? [top.a, top.b]
        : [top.b, top.a];
    const keep = clusters[keepIndex] as ClusterState;
    const drop = clusters[dropIndex] as ClusterState;
    // A product with a neighbour is the sum of the two parts' products; a part with no link to it
    // computes its own (before the sums are added).
    graph.merge(
      keepIndex,
      dropIndex,
      (c, link) => addProducts(graph, link, drop, clusters[c] as ClusterState),
      (c, link) => addProducts(graph, link, keep, clusters[c] as ClusterState),
    );
    absorb(keep, drop, pools, tree);
    keep.stamp += 1;
    if (graph.live(keepIndex).links.length > 2 * MAX_LINKS)
      pruneLinks(graph, clusters, keepIndex, opts.textWeight);
    pushBest(keepIndex);
  }
  if (!textOnly) joinSameWork(clusters, opts, pools, tree);
  return clusters.filter((c) => c.alive).map((c) => ({ members: c.members, node: c.node }));
}

/** `keep` takes in `drop`'s members and sums; `drop` is gone. */
function absorb(keep: ClusterState, drop: ClusterState, pools: Pools, tree: MergeTree): void {
  keep.node = tree.join(keep.node, drop.node);
  keep.members.push(...drop.members);
  keep.text.add(drop.text, pools.text);
  keep.action.add(drop.action, pools.action);
  drop.text.release(pools.text);
  drop.action.release(pools.action);
  drop.alive = false;
}

function addProducts(graph: LinkGraph, link: number, part: ClusterState, other: ClusterState): void {
  graph.text[link] = (graph.text[link] as number) + ClusterSums.dot(part.text, other.text);
  graph.action[link] = (graph.action[link] as number) + ClusterSums.dot(part.action, other.action);
}

/**
 * The second pass (see the top of this file): best pair first, until no pair qualifies. Every pair
 * is scored once; a merge rescores only the pairs of the group that grew.
 */
function joinSameWork(
  clusters: ClusterState[],
  opts: AgglomerateOptions,
  pools: Pools,
  tree: MergeTree,
): void {
  const groups = clusters.filter((c) => c.alive && c.members.length >= 2 && c.action.size > 0);
  const norm = (v: ClusterSums): number => Math.sqrt(ClusterSums.dot(v, v)) || 1;
  const norms = groups.map((g) => ({ text: norm(g.text), action: norm(g.action) }));
  const stamps = groups.map(() => 0);
  const heap = new PairHeap();
  const consider = (i: number, j: number): void => {
    const a = groups[i] as ClusterState;
    const b = groups[j] as ClusterState;
    if (!a.alive || !b.alive) return;
    const na = norms[i] as { text: number; action: number };
    const nb = norms[j] as { text: number; action: number };
    const work = ClusterSums.dot(a.action, b.action) / (na.action * nb.action);
    if (work < opts.sameWorkCosine) return;
    const words = ClusterSums.dot(a.text, b.text) / (na.text * nb.text);
    if (words < opts.sameWorkText) return;
    heap.push(work, i, j, stamps[i] ?? 0, stamps[j] ?? 0);
  };
  for (let i = 0; i < groups.length; i++) for (let j = i + 1; j < groups.length; j++) consider(i, j);
  const top: PairEntry = { sim: 0, a: 0, b: 0, stampA: 0, stampB: 0 };
  while (heap.pop(top)) {
    const a = groups[top.a] as ClusterState;
    const b = groups[top.b] as ClusterState;
    if (!a.alive || !b.alive || stamps[top.a] !== top.stampA || stamps[top.b] !== top.stampB) continue;
    const [keepAt, dropAt] = a.members.length >= b.members.length ? [top.a, top.b] : [top.b, top.a];
    const keep = groups[keepAt] as ClusterState;
    absorb(keep, groups[dropAt] as ClusterState, pools, tree);
    stamps[keepAt] = (stamps[keepAt] ?? 0) + 1;
    norms[keepAt] = { text: norm(keep.text), action: norm(keep.action) };
    for (let c = 0; c < groups.length; c++) {
      if (c !== keepAt) consider(Math.min(c, keepAt), Math.max(c, keepAt));
    }
  }
}

/**
 * A cluster keeps its strongest neighbours only: every merge rescores each of them, so a kind of
 * thousands of sessions with unbounded neighbours would cost its size squared. Only links to single
 * sessions are let go: one comes back when a session merged in later lists it among its neighbours.
 */
const MAX_LINKS = 64;

function pruneLinks(graph: LinkGraph, clusters: ClusterState[], index: number, textWeight: number): void {
  const cluster = clusters[index] as ClusterState;
  const { neighbours, links } = graph.live(index);
  const ranked = links.map((link, k) => {
    const c = neighbours[k] as number;
    const pairs = cluster.members.length * (clusters[c] as ClusterState).members.length;
    const strength =
      (textWeight * (graph.text[link] as number) + (1 - textWeight) * (graph.action[link] as number)) / pairs;
    return { c, link, strength };
  });
  ranked.sort((x, y) => y.strength - x.strength || x.c - y.c);
  for (const { c, link } of ranked.slice(MAX_LINKS)) {
    const other = clusters[c] as ClusterState;
    // A link between two groups has no session left to bring it back, and a session's last link
    // is its only way to any group: both stay.
    if (other.members.length > 1 || graph.degree(c) <= 1) continue;
    graph.cut(link);
  }
}

function similarity(
  linkText: number,
  linkAction: number,
  a: ClusterState,
  b: ClusterState,
  opts: AgglomerateOptions,
  textOnly: boolean,
): number {
  const pairs = a.members.length * b.members.length;
  const text = linkText / pairs;
  if (textOnly) return text >= opts.textOnlyThreshold ? text : -1;
  if (text < opts.minText || a.action.size === 0 || b.action.size === 0) return -1;
  const actions = linkAction / pairs;
  if (actions < opts.minAction) return -1;
  return opts.textWeight * text + (1 - opts.textWeight) * actions;
}
