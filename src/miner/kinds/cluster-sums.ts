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

export class ClusterSums {
  /** One input: its sorted feature ids and values (never written). */
  private ids: Int32Array | null;
  private values: Float64Array | null;
  /** A group: its sum by feature, and the features present in the order they appeared. */
  private dense: Float64Array | null = null;
  private present: number[] | null = null;
  /** How many features the sum has. */
  size: number;

  /** `compact` maps the vector's feature ids to the partition's own (0 .. width − 1). */
  constructor(vector: Vector, compact: Map<number, number>) {
    const entries: Array<[number, number]> = [];
    for (const [id, value] of vector) {
      let local = compact.get(id);
      if (local === undefined) {
        local = compact.size;
        compact.set(id, local);
      }
      entries.push([local, value]);
    }
    entries.sort((x, y) => x[0] - y[0]);
    this.size = entries.length;
    this.ids = Int32Array.from(entries, (e) => e[0]);
    this.values = Float64Array.from(entries, (e) => e[1]);
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
    if (other.ids !== null) {
      const values = other.values as Float64Array;
      for (let i = 0; i < other.ids.length; i++) put(other.ids[i] as number, values[i] as number);
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
    if (this.ids !== null) {
      const values = this.values as Float64Array;
      for (let i = 0; i < this.ids.length; i++)
        sum += (values[i] as number) * (dense[this.ids[i] as number] as number);
    } else {
      const own = this.dense as Float64Array;
      for (const id of this.present as number[]) sum += (own[id] as number) * (dense[id] as number);
    }
    return sum;
  }

  private densify(pool: DensePool): void {
    const dense = pool.take();
    const ids = this.ids as Int32Array;
    const values = this.values as Float64Array;
    for (let i = 0; i < ids.length; i++) dense[ids[i] as number] = values[i] as number;
    this.dense = dense;
    this.present = Array.from(ids);
    this.ids = null;
    this.values = null;
  }

  /** Σ a·b over the features both sums have. */
  static dot(a: ClusterSums, b: ClusterSums): number {
    const aDense = a.dense;
    const bDense = b.dense;
    if (aDense !== null) return bDense !== null && b.size > a.size ? a.dotDense(bDense) : b.dotDense(aDense);
    if (bDense !== null) return a.dotDense(bDense);
    return mergeJoin(
      a.ids as Int32Array,
      a.values as Float64Array,
      b.ids as Int32Array,
      b.values as Float64Array,
    );
  }
}

function mergeJoin(aIds: Int32Array, aValues: Float64Array, bIds: Int32Array, bValues: Float64Array): number {
  let sum = 0;
  for (let i = 0, j = 0; i < aIds.length && j < bIds.length;) {
    const u = aIds[i] as number;
    const v = bIds[j] as number;
    if (u === v) sum += (aValues[i++] as number) * (bValues[j++] as number);
    else if (u < v) i += 1;
    else j += 1;
  }
  return sum;
}
