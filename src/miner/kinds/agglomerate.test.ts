import { describe, expect, it } from 'vitest';
import { agglomerate } from './agglomerate.js';
import type { Vector } from './vectors.js';

/** A unit vector over the given features, equal weights. */
function unit(ids: readonly number[]): Vector {
  const value = 1 / Math.sqrt(ids.length);
  return new Map(ids.map((id) => [id, value]));
}

/**
 * `kinds` kinds of `perKind` items: each item has its kind's two shared words and actions, plus a
 * detail word of its own; items are interleaved, as sessions of several kinds are in time.
 */
function corpus(kinds: number, perKind: number): { text: Vector[]; action: Vector[]; truth: number[] } {
  const text: Vector[] = [];
  const action: Vector[] = [];
  const truth: number[] = [];
  for (let i = 0; i < kinds * perKind; i++) {
    const kind = i % kinds;
    text.push(unit([kind * 2, kind * 2 + 1, 10_000 + i]));
    action.push(unit([kind * 3, kind * 3 + 1, kind * 3 + 2]));
    truth.push(kind);
  }
  return { text, action, truth };
}

function groupsByKind(groups: number[][], truth: readonly number[]): number[][] {
  return groups.map((g) => [...new Set(g.map((i) => truth[i] ?? -1))]);
}

describe('agglomerate', () => {
  it('finds every kind whole in a corpus large enough that long posting lists are windowed', () => {
    const { text, action, truth } = corpus(3, 1200);
    const groups = agglomerate(
      text,
      action,
      text.map(() => ''),
    );
    expect(groups).toHaveLength(3);
    expect(groupsByKind(groups, truth)).toEqual([[0], [1], [2]]);
    expect(groups.map((g) => g.length)).toEqual([1200, 1200, 1200]);
  });

  it('never joins items of two partitions, however alike', () => {
    const { text, action } = corpus(1, 40);
    const partition = text.map((_, i) => (i < 20 ? 'a' : 'b'));
    const groups = agglomerate(text, action, partition);
    expect(groups).toHaveLength(2);
    for (const g of groups) expect(new Set(g.map((i) => partition[i])).size).toBe(1);
  });

  it('joins two groups that do the same work in other words (the second pass)', () => {
    // Within a wording, requests share a word (0.33); across wordings only a faint one (0.03, below
    // minText), so average linkage keeps them apart while their centroids still point the same way.
    const item = (word: number, unique: number): Vector =>
      new Map([
        [word, Math.sqrt(0.3)],
        [3, Math.sqrt(0.03)],
        [unique, Math.sqrt(0.67)],
      ]);
    const text = [
      ...Array.from({ length: 6 }, (_, i) => item(1, 100 + i)),
      ...Array.from({ length: 6 }, (_, i) => item(2, 200 + i)),
    ];
    const action = text.map(() => unit([7, 8]));
    const partition = text.map(() => '');
    const apart = agglomerate(text, action, partition, { sameWorkCosine: 1.1 });
    expect(apart).toEqual([
      [0, 1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10, 11],
    ]);
    expect(agglomerate(text, action, partition)).toEqual([Array.from({ length: 12 }, (_, i) => i)]);
    // The same two groups in two projects: the second pass joins nothing across them.
    const twoProjects = text.map((_, i) => (i < 6 ? '/work/a' : 'c:/users/me/b'));
    expect(agglomerate(text, action, twoProjects)).toEqual(apart);
  });
});
