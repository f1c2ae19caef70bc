import { describe, expect, it } from 'vitest';
import { ClusterSums, DensePool, SparseArena } from './cluster-sums.js';
import { dot, type Vector } from './vectors.js';

/** A vector over `count` features from `first`, each feature `id` weighing 1 + id / 1000. */
function vector(first: number, count: number): Vector {
  return new Map(Array.from({ length: count }, (_, k) => [first + k, 1 + (first + k) / 1000] as const));
}

function sumOf(vectors: readonly Vector[], arena: SparseArena, pool: DensePool): ClusterSums {
  const [head, ...rest] = vectors.map((v) => new ClusterSums(v, arena));
  if (head === undefined) throw new Error('no vectors');
  for (const part of rest) head.add(part, pool);
  return head;
}

function plainSum(vectors: readonly Vector[]): Vector {
  const out: Vector = new Map();
  for (const v of vectors) for (const [id, value] of v) out.set(id, (out.get(id) ?? 0) + value);
  return out;
}

describe('ClusterSums', () => {
  // One session (sorted arrays) and groups (dense), in every pairing.
  const shapes: Record<string, Vector[]> = {
    single: [vector(5, 20)],
    small: [vector(0, 30), vector(20, 30)],
    large: [vector(10, 80), vector(60, 80), vector(150, 40)],
  };

  it('gives the same dot products as plain maps whatever the two representations', () => {
    const arena = new SparseArena(Object.values(shapes).flat());
    const pool = new DensePool(1000);
    const sums = Object.fromEntries(
      Object.entries(shapes).map(([name, vs]) => [name, sumOf(vs, arena, pool)]),
    );
    const compact = arena.compact;
    // Compact ids follow first appearance; remap the plain sums the same way.
    const local = (v: Vector): Vector => new Map([...v].map(([id, x]) => [compact.get(id) ?? -1, x]));
    for (const [a, va] of Object.entries(shapes)) {
      for (const [b, vb] of Object.entries(shapes)) {
        const expected = dot(local(plainSum(va)), local(plainSum(vb)));
        expect(ClusterSums.dot(sums[a]!, sums[b]!), `${a}·${b}`).toBeCloseTo(expected, 9);
      }
    }
    expect(sums['large']?.size).toBe(plainSum(shapes['large']!).size);
  });

  it('hands a dense array back zeroed, for the next large group', () => {
    const later = [vector(100, 70), vector(140, 70), vector(0, 200)];
    const arena = new SparseArena([...shapes['large']!, ...later]);
    const pool = new DensePool(400);
    const large = sumOf(shapes['large']!, arena, pool);
    large.release(pool);
    const again = sumOf([vector(100, 70), vector(140, 70)], arena, pool);
    const alone = new ClusterSums(vector(0, 200), arena);
    const expected = dot(plainSum([vector(100, 70), vector(140, 70)]), vector(0, 200));
    expect(ClusterSums.dot(again, alone)).toBeCloseTo(expected, 9);
  });
});
