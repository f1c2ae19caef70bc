/**
 * The sum of one view's vectors over a cluster's members, in the representation that makes its dot
 * products cheap. Average linkage (`agglomerate.ts`) computes hundreds of thousands of them per
 * night: a session's own vector is a pair of sorted arrays (a dot of two is a merge join); a group's
 * sum is a dense array over the partition's features with the list of those present (a dot with it
 * is one array read per feature of the other side, where a map would hash each). Dense arrays come
 * from a pool, so memory stays at (groups alive at once) × (the partition's features).
 *
 * Every weight is positive (tf-idf), so a feature once present stays present.
 */
import type { Vector } from './vectors.js';

/** Zeroed dense arrays of one partition's width, reused as groups come and go. */
export class DensePool {
  private readonly free: Float64Array[] = [];
  private readonly width: number;
  constructor(width: number) {
    this.width = width;
  }

  take(): Float64Array {
    return this.free.pop() ?? new Float64Array(this.width);
  }

  give(array: Float64Array, ids: readonly number[]): void {
    for (const id of ids) array[id] = 0;
    this.free.push(array);
  }
}

/**
 * Every session's own vector of one view, sorted by feature, in two flat arrays (one allocation for
 * the partition rather than two per session).
 */
export class SparseArena {
  readonly ids: Int32Array;
  readonly values: Float64Array;
  private used = 0;
  /** Maps feature ids to the partition's own (0 .. width − 1), in order of first appearance. */
  readonly compact = new Map<number, number>();

  constructor(vectors: readonly Vector[]) {
    let total = 0;
    for (const vector of vectors) total += vector.size;
    this.ids = new Int32Array(total);
    this.values = new Float64Array(total);
  }

  /** The partition's width: how many features its vectors have. */
  get width(): number {
    return this.compact.size;
  }

  /** Stores `vector` sorted by (compact) feature id; its [start, end). */
  put(vector: Vector): [number, number] {
    const { ids, values, compact } = this;
    const start = this.used;
    let end = start;
    for (const [id, value] of vector) {
      let local = compact.get(id);
      if (local === undefined) {
        local = compact.size;
        compact.set(id, local);
      }
      // Insertion sort: a session has tens of features.
      let at = end++;
      while (at > start && (ids[at - 1] as number) > local) {
        ids[at] = ids[at - 1] as number;
        values[at] = values[at - 1] as number;
        at -= 1;
      }
      ids[at] = local;
      values[at] = value;
    }
    this.used = end;
    return [start, end];
  }
}

export class ClusterSums {
  /** One input: its span of the arena (never written). */
  private arena: SparseArena | null;
  private start: number;
  private end: number;
  /** A group: its sum by feature, and the features present in the order they appeared. */
  private dense: Float64Array | null = null;
  private present: number[] | null = null;
  /** How many features the sum has. */
  size: number;

  constructor(vector: Vector, arena: SparseArena) {
    const [start, end] = arena.put(vector);
    this.arena = arena;
    this.start = start;
    this.end = end;
    this.size = end - start;
  }

  /** `this += other`; the first growth takes a dense array from `pool`. */
  add(other: ClusterSums, pool: DensePool): void {
    if (this.dense === null) this.densify(pool);
    const dense = this.dense as Float64Array;
    const present = this.present as number[];
    const put = (id: number, value: number): void => {
      if (dense[id] === 0) present.push(id);
      dense[id] = (dense[id] as number) + value;
    };
    if (other.arena !== null) {
      const { ids, values } = other.arena;
      for (let i = other.start; i < other.end; i++) put(ids[i] as number, values[i] as number);
    } else {
      const from = other.dense as Float64Array;
      for (const id of other.present as number[]) put(id, from[id] as number);
    }
    this.size = present.length;
  }

  /** Hands the dense array back to the pool (the cluster is gone). */
  release(pool: DensePool): void {
    if (this.dense !== null) pool.give(this.dense, this.present as number[]);
    this.dense = null;
    this.present = null;
  }

  /** Σ this·dense over this sum's features. */
  private dotDense(dense: Float64Array): number {
    let sum = 0;
    if (this.arena !== null) {
      const { ids, values } = this.arena;
      for (let i = this.start; i < this.end; i++)
        sum += (values[i] as number) * (dense[ids[i] as number] as number);
    } else {
      const own = this.dense as Float64Array;
      for (const id of this.present as number[]) sum += (own[id] as number) * (dense[id] as number);
    }
    return sum;
  }

  private densify(pool: DensePool): void {
    const dense = pool.take();
    const { ids, values } = this.arena as SparseArena;
    const present: number[] = [];
    for (let i = this.start; i < this.end; i++) {
      dense[ids[i] as number] = values[i] as number;
      present.push(ids[i] as number);
    }
    this.dense = dense;
    this.present = present;
    this.arena = null;
  }

  /** Σ a·b over the features both sums have. */
  static dot(a: ClusterSums, b: ClusterSums): number {
    const aDense = a.dense;
    const bDense = b.dense;
    if (aDense !== null) return bDense !== null && b.size > a.size ? a.dotDense(bDense) : b.dotDense(aDense);
    if (bDense !== null) return a.dotDense(bDense);
    return ClusterSums.mergeJoin(a, b);
  }

  /** Σ a·b of two sessions' own vectors (both sorted). */
  private static mergeJoin(a: ClusterSums, b: ClusterSums): number {
    const { ids: aIds, values: aValues } = a.arena as SparseArena;
    const { ids: bIds, values: bValues } = b.arena as SparseArena;
    let sum = 0;
    for (let i = a.start, j = b.start; i < a.end && j < b.end;) {
      const u = aIds[i] as number;
      const v = bIds[j] as number;
      if (u === v) sum += (aValues[i++] as number) * (bValues[j++] as number);
      else if (u < v) i += 1;
      else j += 1;
    }
    return sum;
  }
}
