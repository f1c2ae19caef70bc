/**
 * Groups normalised intents that mean the same task, in about linear time:
 *
 * 1. Intents with the same feature set (see `similarity.ts`) are one document; an intent without
 *    features only groups with the very same normal form.
 * 2. Each document gets a MinHash signature over its features, each feature repeated once per unit
 *    of weight, so the chance of two signatures agreeing on a row is the weighted Jaccard.
 * 3. LSH: signatures are cut into bands of {@link ROWS} rows; documents that agree on a whole band
 *    land in one bucket and become candidates.
 * 4. Candidates are verified with `similarity()` and joined with union-find. In a bucket, each
 *    document is compared with one representative per component already seen there (at most
 *    {@link MAX_REPRESENTATIVES}), not with every member, so a big bucket stays linear.
 *
 * Deterministic: hash functions are seeded constants, and documents are processed in the order of
 * their feature keys, so the result does not depend on the order of the input.
 */
import { featureSet, intentFeatures, SIMILARITY_THRESHOLD, similarity } from './similarity.js';
import type { Feature, FeatureSet } from './similarity.js';

/** Rows per band and bands: P(candidate) = 1 - (1 - J^ROWS)^BANDS, 0.996 at J = 0.45. */
const ROWS = 2;
const BANDS = 24;
const HASHES = ROWS * BANDS;
const MAX_REPRESENTATIVES = 48;

export interface ClusterOptions {
  /** Weighted Jaccard needed to join two intents (default {@link SIMILARITY_THRESHOLD}). */
  threshold?: number;
  /** Called for every verified join with an input index of each side and their similarity (diagnostics). */
  onJoin?: (a: number, b: number, similarity: number) => void;
}

interface Doc {
  key: string;
  set: FeatureSet;
  features: readonly Feature[];
  /** Indices of the input intents that have this feature set. */
  items: number[];
}

/**
 * Clusters normalised intents (outputs of `normalizeIntent`). Returns groups of input indices: each
 * group ascending, groups ordered by their first index. Every index is in exactly one group.
 */
export function clusterIntents(normalized: readonly string[], opts: ClusterOptions = {}): number[][] {
  const threshold = opts.threshold ?? SIMILARITY_THRESHOLD;
  const docs = documents(normalized);
  const uf = new UnionFind(docs.length);
  const buckets = lshBuckets(docs);
  for (const bucket of buckets.values()) joinBucket(bucket, docs, uf, threshold, opts.onJoin);

  const groups = new Map<number, number[]>();
  docs.forEach((doc, index) => {
    const root = uf.find(index);
    const group = groups.get(root);
    if (group) group.push(...doc.items);
    else groups.set(root, [...doc.items]);
  });
  return [...groups.values()].map((group) => group.sort((a, b) => a - b)).sort(byFirst);
}

function byFirst(a: readonly number[], b: readonly number[]): number {
  return (a[0] ?? 0) - (b[0] ?? 0);
}

/** One document per distinct feature set, sorted by key (the canonical processing order). */
function documents(normalized: readonly string[]): Doc[] {
  const byKey = new Map<string, Doc>();
  normalized.forEach((text, index) => {
    const features = intentFeatures(text);
    const key =
      features.length === 0
        ? `\u0000${text}`
        : features
            .map((f) => f.token)
            .sort()
            .join(' ');
    const doc = byKey.get(key);
    if (doc) doc.items.push(index);
    else byKey.set(key, { key, set: featureSet(features), features, items: [index] });
  });
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Bucket key → document indices, in document order. Documents without features get no buckets. */
function lshBuckets(docs: readonly Doc[]): Map<string, number[]> {
  const buckets = new Map<string, number[]>();
  const signature = new Uint32Array(HASHES);
  const tokenHashes = new Map<string, number>();
  docs.forEach((doc, index) => {
    if (doc.features.length === 0) return;
    minHash(doc.features, tokenHashes, signature);
    for (let band = 0; band < BANDS; band++) {
      let key = `${band}`;
      for (let row = 0; row < ROWS; row++) key += `:${signature[band * ROWS + row]}`;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  });
  return buckets;
}

/** Seeds of the hash functions: fixed, so signatures are the same in every run. */
const SEEDS: Uint32Array = Uint32Array.from({ length: HASHES }, (_, i) =>
  fmix32(Math.imul(i + 1, 0x9e3779b9)),
);

function minHash(features: readonly Feature[], cache: Map<string, number>, out: Uint32Array): void {
  out.fill(0xffffffff);
  for (const feature of features) {
    let base = cache.get(feature.token);
    if (base === undefined) {
      base = fnv1a(feature.token);
      cache.set(feature.token, base);
    }
    for (let copy = 0; copy < feature.weight; copy++) {
      const element = fmix32((base + Math.imul(copy, 0x85ebca6b)) | 0);
      for (let i = 0; i < HASHES; i++) {
        const value = fmix32(element ^ (SEEDS[i] ?? 0));
        if (value < (out[i] ?? 0)) out[i] = value;
      }
    }
  }
}

function joinBucket(
  bucket: readonly number[],
  docs: readonly Doc[],
  uf: UnionFind,
  threshold: number,
  onJoin: ClusterOptions['onJoin'],
): void {
  if (bucket.length < 2) return;
  const representatives: number[] = [];
  for (const member of bucket) {
    const set = docs[member]?.set;
    if (set === undefined) continue;
    for (const rep of representatives) {
      if (uf.find(rep) === uf.find(member)) continue;
      const other = docs[rep]?.set;
      if (other === undefined) continue;
      const score = similarity(set, other);
      if (score < threshold) continue;
      uf.union(rep, member);
      onJoin?.(docs[rep]?.items[0] ?? -1, docs[member]?.items[0] ?? -1, score);
    }
    const root = uf.find(member);
    const represented = representatives.some((rep) => uf.find(rep) === root);
    if (!represented && representatives.length < MAX_REPRESENTATIVES) representatives.push(member);
  }
}

/** FNV-1a over UTF-16 code units, 32 bit. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: a fast, well-mixed 32-bit permutation. */
function fmix32(input: number): number {
  let h = input;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Union-find with path halving and union by size. */
class UnionFind {
  private readonly parent: Int32Array;
  private readonly size: Int32Array;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
    this.size = new Int32Array(n).fill(1);
  }

  find(x: number): number {
    let node = x;
    for (;;) {
      const parent = this.parent[node] ?? node;
      if (parent === node) return node;
      const grand = this.parent[parent] ?? parent;
      this.parent[node] = grand;
      node = grand;
    }
  }

  union(a: number, b: number): void {
    let rootA = this.find(a);
    let rootB = this.find(b);
    if (rootA === rootB) return;
    if ((this.size[rootA] ?? 0) < (this.size[rootB] ?? 0)) [rootA, rootB] = [rootB, rootA];
    this.parent[rootB] = rootA;
    this.size[rootA] = (this.size[rootA] ?? 0) + (this.size[rootB] ?? 0);
  }
}
