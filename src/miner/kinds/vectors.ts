/**
 * Sparse weighted vectors over one project's sessions: tf-idf with the corpus's own document
 * frequencies (at least {@link MIN_IDF}, so a project with a single kind of task still groups). A feature only one session has cannot make two sessions alike, so it is dropped
 * before the norm (it would only dilute the others).
 */

const MIN_IDF = 0.1;

/** feature id → weight */
export type Vector = Map<number, number>;

export interface Vocabulary {
  ids: Map<string, number>;
  names: string[];
  /** Sessions that have each feature (by id). */
  df: number[];
}

export interface VectorOptions {
  /**
   * Divide by max(norm, the median norm of the non-empty vectors) instead of the norm: a session
   * whose only action was one `ls` must not look like a perfect match of another such session.
   */
  floorAtMedianNorm?: boolean;
}

export function weightedVectors(
  lists: ReadonlyArray<ReadonlyMap<string, number>>,
  opts: VectorOptions = {},
): { vectors: Vector[]; vocabulary: Vocabulary } {
  const vocabulary: Vocabulary = { ids: new Map(), names: [], df: [] };
  for (const list of lists) {
    for (const feature of list.keys()) {
      let id = vocabulary.ids.get(feature);
      if (id === undefined) {
        id = vocabulary.names.length;
        vocabulary.ids.set(feature, id);
        vocabulary.names.push(feature);
        vocabulary.df.push(0);
      }
      vocabulary.df[id] = (vocabulary.df[id] ?? 0) + 1;
    }
  }
  const n = lists.length;
  const raw = lists.map((list) => {
    const vector: Vector = new Map();
    let squares = 0;
    for (const [feature, weight] of list) {
      const id = vocabulary.ids.get(feature) ?? -1;
      const df = vocabulary.df[id] ?? 0;
      if (df < 2 || weight <= 0) continue;
      // A feature every session has still counts a little (a project of one kind of task).
      const value = weight * Math.max(Math.log(n / df), MIN_IDF);
      if (value <= 0) continue;
      vector.set(id, value);
      squares += value * value;
    }
    return { vector, norm: Math.sqrt(squares) };
  });
  const floor = opts.floorAtMedianNorm ? medianNorm(raw.map((r) => r.norm)) : 0;
  const vectors = raw.map(({ vector, norm }) => {
    const divisor = Math.max(norm, floor);
    if (divisor > 0) for (const [id, value] of vector) vector.set(id, value / divisor);
    return vector;
  });
  return { vectors, vocabulary };
}

function medianNorm(norms: readonly number[]): number {
  const sorted = norms.filter((norm) => norm > 0).sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] ?? 0);
}

/** Σ a·b over the shared features (iterates the smaller map). */
export function dot(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [id, value] of small) {
    const other = large.get(id);
    if (other !== undefined) sum += value * other;
  }
  return sum;
}

/** `into += from`, in place. */
export function addInto(into: Vector, from: Vector): void {
  for (const [id, value] of from) into.set(id, (into.get(id) ?? 0) + value);
}
