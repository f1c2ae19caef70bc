/**
 * The sum of one view's vectors over a cluster's members, in the representation that makes its dot
 * products cheap at its size. Average linkage (`agglomerate.ts`) computes hundreds of thousands of
 * them per night: a session's own vector is a pair of sorted arrays (a dot of two is a merge join), a
 * small group's sum a map, and a large group's sum a dense array over the partition's features (a
 * dot with it is one array read per feature of the other side, where a map would hash each).
 *
 * Every weight is positive (tf-idf), so a feature once present stays present.
 */
import type { Vector } from './vectors.js';

/** A group's sum turns dense once it has this many features. */
const DENSE_AT = 96;

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
  /** Sorted ids and their values while the cluster is one input (never written). */
  private ids: Int32Array | null;
  private values: Float64Array | null;
  private map: Map<number, number> | null = null;
  private dense: Float64Array | null = null;
  /** The features present in `dense`, in the order they appeared. */
  private denseIds: number[] | null = null;

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

  /** How many features the sum has. */
  size: number;

  /** `this += other`; `pool` supplies the dense array when the sum grows large. */
  add(other: ClusterSums, pool: DensePool): void {
    if (this.dense === null) {
      const map = this.ownMap();
      other.forEach((id, value) => map.set(id, (map.get(id) ?? 0) + value));
      this.size = map.size;
      if (map.size >= DENSE_AT) this.densify(map, pool);
      return;
    }
    const dense = this.dense;
    const ids = this.denseIds as number[];
    other.forEach((id, value) => {
      if (dense[id] === 0) ids.push(id);
      dense[id] = (dense[id] as number) + value;
    });
    this.size = ids.length;
  }

  /** Hands a dense array back to the pool (the cluster is gone). */
  release(pool: DensePool): void {
    if (this.dense !== null) pool.give(this.dense, this.denseIds as number[]);
    this.dense = null;
    this.denseIds = null;
    this.map = null;
  }

  forEach(visit: (id: number, value: number) => void): void {
    if (this.ids !== null) {
      const values = this.values as Float64Array;
      for (let i = 0; i < this.ids.length; i++) visit(this.ids[i] as number, values[i] as number);
    } else if (this.map !== null) {
      for (const [id, value] of this.map) visit(id, value);
    } else if (this.dense !== null) {
      const dense = this.dense;
      for (const id of this.denseIds as number[]) visit(id, dense[id] as number);
    }
  }

  /** Σ this·dense over this sum's features. */
  private dotDense(dense: Float64Array): number {
    let sum = 0;
    if (this.ids !== null) {
      const values = this.values as Float64Array;
      for (let i = 0; i < this.ids.length; i++)
        sum += (values[i] as number) * (dense[this.ids[i] as number] as number);
    } else if (this.map !== null) {
      for (const [id, value] of this.map) sum += value * (dense[id] as number);
    } else if (this.dense !== null) {
      const own = this.dense;
      for (const id of this.denseIds as number[]) sum += (own[id] as number) * (dense[id] as number);
    }
    return sum;
  }

  /** Σ this·map, reading the map once per feature of this (sorted-array) sum. */
  private dotMap(map: Map<number, number>): number {
    const ids = this.ids as Int32Array;
    const values = this.values as Float64Array;
    let sum = 0;
    for (let i = 0; i < ids.length; i++) {
      const other = map.get(ids[i] as number);
      if (other !== undefined) sum += (values[i] as number) * other;
    }
    return sum;
  }

  private ownMap(): Map<number, number> {
    if (this.map === null) {
      this.map = new Map();
      this.forEach((id, value) => (this.map as Map<number, number>).set(id, value));
      this.ids = null;
      this.values = null;
    }
    return this.map;
  }

  private densify(map: Map<number, number>, pool: DensePool): void {
    const dense = pool.take();
    const ids: number[] = [];
    for (const [id, value] of map) {
      dense[id] = value;
      ids.push(id);
    }
    this.dense = dense;
    this.denseIds = ids;
    this.map = null;
  }

  /** Σ a·b over the features both sums have. */
  static dot(a: ClusterSums, b: ClusterSums): number {
    const aDense = a.dense;
    const bDense = b.dense;
    if (aDense !== null) return bDense !== null && b.size > a.size ? a.dotDense(bDense) : b.dotDense(aDense);
    if (bDense !== null) return a.dotDense(bDense);
    const aIds = a.ids;
    const bIds = b.ids;
    if (aIds !== null) {
      if (bIds !== null) return mergeJoin(aIds, a.values as Float64Array, bIds, b.values as Float64Array);
      return a.dotMap(b.map as Map<number, number>);
    }
    if (bIds !== null) return b.dotMap(a.map as Map<number, number>);
    const aMap = a.map as Map<number, number>;
    const bMap = b.map as Map<number, number>;
    return aMap.size <= bMap.size ? mapDot(aMap, bMap) : mapDot(bMap, aMap);
  }
}

/** Σ small·large, iterating the smaller map. */
function mapDot(small: Map<number, number>, large: Map<number, number>): number {
  let sum = 0;
  for (const [id, value] of small) {
    const other = large.get(id);
    if (other !== undefined) sum += value * other;
  }
  return sum;
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
