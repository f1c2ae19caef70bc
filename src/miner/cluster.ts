/**
 * Groups the intents of one project that mean the same task, in about linear time:
 *
 * 1. Features (see `similarity.ts`): what the corpus says about names, typos, boilerplate closing
 *    sentences and filler words is read first, then each intent becomes a weighted feature set.
 *    Intents with the same feature set are one document; an intent without features only groups
 *    with the very same normal form.
 * 2. Each document gets a MinHash signature over its content words, each repeated once per unit of
 *    weight, so two signatures agree on a row with probability the weighted Jaccard of the content.
 * 3. LSH: signatures are cut into {@link BANDS} bands of {@link ROWS} rows; documents that agree on
 *    a band land in one bucket and become candidates. Documents with nothing specific also meet in
 *    a bucket per action.
 * 4. Candidates are verified with `similarity()` and joined with union-find. In a bucket, each
 *    document is compared with one representative per component already seen there (at most
 *    {@link MAX_REPRESENTATIVES}), not with every member, so a big bucket stays linear.
 * 5. Components of underspecified requests join the most common task they could be (see
 *    `attachUnderspecified`).
 *
 * Deterministic: hash functions are seeded constants, and documents are processed in the order of
 * their feature keys, so the result does not depend on the order of the input. Corpus knowledge
 * (step 1) grows with the corpus, so a borderline session can change cluster when many sessions are
 * added; cluster ids (`mine.ts`) only depend on the earliest member.
 */
import { normalizeIntent } from './normalize-intent.js';
import {
  applySpecificity,
  corpusBoilerplate,
  corpusNames,
  correctTypos,
  corpusSpecificity,
  featureSet,
  featuresOf,
  sentenceWords,
  SIMILARITY_THRESHOLD,
  similarity,
  stripBoilerplate,
  typoCorrections,
} from './similarity.js';
import type { Feature, FeatureSet } from './similarity.js';

/** Rows per band and bands: P(candidate) = 1 - (1 - J^ROWS)^BANDS, 0.996 at J = 0.45, 0.9 at 0.3. */
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
 * Clusters intents (the raw first prompts of one project's sessions). Returns groups of input
 * indices: each group ascending, groups ordered by their first index. Every index is in exactly one
 * group.
 */
export function clusterIntents(intents: readonly string[], opts: ClusterOptions = {}): number[][] {
  const threshold = opts.threshold ?? SIMILARITY_THRESHOLD;
  const docs = documents(intents);
  const uf = new UnionFind(docs.length);
  const buckets = lshBuckets(docs);
  for (const bucket of buckets.values()) joinBucket(bucket, docs, uf, threshold, opts.onJoin);
  attachUnderspecified(docs, uf);

  const groups = new Map<number, number[]>();
  docs.forEach((doc, index) => {
    const root = uf.find(index);
    const group = groups.get(root);
    if (group) group.push(...doc.items);
    else groups.set(root, [...doc.items]);
  });
  return [...groups.values()].map((group) => group.sort((a, b) => a - b)).sort(byFirst);
}

/**
 * A component made only of underspecified requests (an action, placeholders and generic words:
 * "add `x` to the app", "bump `x` to 1.2.3") joins the component holding the most sessions among
 * the specific requests with the same action and placeholders, when those are at least as many as
 * its own: the request is read as the most common task it could be. ("explain `x`" stays alone:
 * the few "describe `x` in the README" do not say what it means.) Components with a specific
 * request never merge this way.
 */
function attachUnderspecified(docs: readonly Doc[], uf: UnionFind): void {
  const shapeOf = (set: FeatureSet): string => `${set.action ?? ''}|${set.placeholders}`;
  const specificByShape = new Map<string, number[]>();
  const specificRoots = new Set<number>();
  docs.forEach((doc, index) => {
    if (!doc.set.specific || doc.set.action === null) return;
    const list = specificByShape.get(shapeOf(doc.set));
    if (list) list.push(index);
    else specificByShape.set(shapeOf(doc.set), [index]);
  });
  docs.forEach((doc, index) => {
    if (doc.set.specific) specificRoots.add(uf.find(index));
  });
  const representative = new Map<number, number>();
  docs.forEach((doc, index) => {
    const root = uf.find(index);
    if (specificRoots.has(root) || doc.set.action === null) return;
    const current = representative.get(root);
    if (current === undefined || (docs[current]?.items.length ?? 0) < doc.items.length)
      representative.set(root, index);
  });
  const sizes = new Map<number, number>();
  docs.forEach((doc, index) => {
    const root = uf.find(index);
    sizes.set(root, (sizes.get(root) ?? 0) + doc.items.length);
  });
  for (const [root, index] of representative) {
    const doc = docs[index];
    if (doc === undefined) continue;
    const target = busiestComponent(specificByShape.get(shapeOf(doc.set)) ?? [], docs, uf);
    if (target !== null && target.sessions >= (sizes.get(root) ?? 0)) uf.union(root, target.root);
  }
}

/** The root whose docs among `candidates` hold the most sessions (ties: the earliest doc), and those sessions. */
function busiestComponent(
  candidates: readonly number[],
  docs: readonly Doc[],
  uf: UnionFind,
): { root: number; sessions: number } | null {
  const sessions = new Map<number, number>();
  for (const candidate of candidates) {
    const root = uf.find(candidate);
    sessions.set(root, (sessions.get(root) ?? 0) + (docs[candidate]?.items.length ?? 0));
  }
  let best: { root: number; sessions: number } | null = null;
  for (const [root, count] of sessions) {
    if (best === null || count > best.sessions) best = { root, sessions: count };
  }
  return best;
}

function byFirst(a: readonly number[], b: readonly number[]): number {
  return (a[0] ?? 0) - (b[0] ?? 0);
}

/** One document per distinct feature set, sorted by key (the canonical processing order). */
function documents(intents: readonly string[]): Doc[] {
  const byKey = new Map<string, Doc>();
  const names = corpusNames(intents);
  const rawSentences = intents.map((intent) => sentenceWords(intent, names));
  const typos = typoCorrections(rawSentences.map((sentences) => sentences.flat()));
  const sentenceLists = rawSentences.map((sentences) => sentences.map((words) => correctTypos(words, typos)));
  const boilerplate = corpusBoilerplate(sentenceLists);
  const featureLists = sentenceLists.map((sentences) =>
    featuresOf(stripBoilerplate(sentences.flat(), boilerplate)),
  );
  const specificity = corpusSpecificity(featureLists);
  intents.forEach((text, index) => {
    const features = applySpecificity(featureLists[index] ?? [], specificity);
    const key =
      features.length === 0
        ? `\u0000${normalizeIntent(text) || text.toLowerCase().replace(/\s+/g, ' ').trim()}`
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

/**
 * Bucket key → document indices, in document order. A document's content words give it one bucket
 * per band. A document with an action and nothing specific ("rename `a` to `b`", "add `zod` to the
 * app") also goes to the bucket of its action, where such documents meet (see `similarity`).
 */
function lshBuckets(docs: readonly Doc[]): Map<string, number[]> {
  const buckets = new Map<string, number[]>();
  const put = (key: string, index: number): void => {
    const bucket = buckets.get(key);
    if (bucket) bucket.push(index);
    else buckets.set(key, [index]);
  };
  const signature = new Uint32Array(HASHES);
  const tokenHashes = new Map<string, number>();
  docs.forEach((doc, index) => {
    if (doc.set.action !== null && !doc.set.specific) put(`action:${doc.set.action}`, index);
    const content = doc.features.filter((f) => f.role === 'content');
    if (content.length === 0) return;
    minHash(content, tokenHashes, signature);
    for (let band = 0; band < BANDS; band++) {
      let key = `${band}`;
      for (let row = 0; row < ROWS; row++) key += `:${signature[band * ROWS + row]}`;
      put(key, index);
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
