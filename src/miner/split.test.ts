import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import type { Origin, Split } from '../core/task.js';
import { assignSplits, assignSplitsWithinGroups, splitBucket, splitHash } from './split.js';
import type { SplitOptions } from './split.js';

interface T {
  id: string;
  origin: Origin;
  split: Split;
  group?: string;
}

const DEFAULT: SplitOptions = { seed: 42, valFraction: 0.34, testFraction: 0 };

function task(id: string, origin: Origin = 'real', group?: string): T {
  return { id, origin, split: 'train', ...(group === undefined ? {} : { group }) };
}

function ids(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}_${i}`);
}

function idsIn(tasks: readonly T[], split: Split): string[] {
  return tasks.filter((t) => t.split === split).map((t) => t.id);
}

/** Real ids (seed 42) whose buckets fall in [from, to). */
function idsWithBucket(from: number, to: number, count: number, prefix = 'x'): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < count; i++) {
    const id = `${prefix}${i}`;
    const bucket = splitBucket(42, id);
    if (bucket >= from && bucket < to) found.push(id);
  }
  return found;
}

describe('splitBucket', () => {
  it('matches the researcher verification vector', () => {
    expect(ids('persona_wrap-answer', 12).map((id) => splitBucket(42, id))).toEqual([
      31, 15, 3, 64, 11, 42, 3, 15, 62, 78, 41, 80,
    ]);
  });

  it('matches the programmer verification vector', () => {
    expect(ids('persona_commit-imperative', 8).map((id) => splitBucket(42, id))).toEqual([
      48, 28, 77, 13, 59, 40, 43, 28,
    ]);
  });

  it('is the full hash modulo 100', () => {
    expect(BigInt(splitBucket(7, 'abc'))).toBe(splitHash(7, 'abc') % 100n);
  });
});

describe('assignSplits', () => {
  it('puts the researcher val ids at {0,1,2,4,6,7}', () => {
    const out = assignSplits(
      ids('persona_wrap-answer', 12).map((id) => task(id)),
      DEFAULT,
    );
    expect(idsIn(out, 'val')).toEqual([0, 1, 2, 4, 6, 7].map((i) => `persona_wrap-answer_${i}`));
  });

  it('puts the programmer val ids at {1,3,7}', () => {
    const out = assignSplits(
      ids('persona_commit-imperative', 8).map((id) => task(id)),
      DEFAULT,
    );
    expect(idsIn(out, 'val')).toEqual([1, 3, 7].map((i) => `persona_commit-imperative_${i}`));
  });

  it('uses test between the val and test cut points', () => {
    const out = assignSplits(
      ids('persona_wrap-answer', 12).map((id) => task(id)),
      {
        seed: 42,
        valFraction: 0.2,
        testFraction: 0.2,
      },
    );
    // buckets 31,15,3,64,11,42,3,15,62,78,41,80: <20 val, <40 test
    expect(idsIn(out, 'val').map((id) => id.split('_').pop())).toEqual(['1', '2', '4', '6', '7']);
    expect(idsIn(out, 'test').map((id) => id.split('_').pop())).toEqual(['0']);
  });

  it('returns new objects and keeps other fields', () => {
    const input = [{ ...task('a'), extra: 1 }, task('b')];
    const out = assignSplits(input, DEFAULT);
    expect(out[0]).not.toBe(input[0]);
    expect(out[0]).toMatchObject({ id: 'a', extra: 1 });
    expect(input.every((t) => t.split === 'train')).toBe(true);
  });

  it('always trains dream tasks', () => {
    const dreamIds = idsWithBucket(0, 34, 3, 'dream');
    const out = assignSplits([...dreamIds.map((id) => task(id, 'dream')), task('r1'), task('r2')], DEFAULT);
    for (const id of dreamIds) expect(out.find((t) => t.id === id)?.split).toBe('train');
  });

  it('promotes the smallest-hash train task to val when none hashed to val', () => {
    const trainIds = idsWithBucket(34, 100, 4);
    const out = assignSplits(
      trainIds.map((id) => task(id)),
      DEFAULT,
    );
    const smallest = [...trainIds].sort((a, b) => (splitHash(42, a) < splitHash(42, b) ? -1 : 1))[0];
    expect(idsIn(out, 'val')).toEqual([smallest]);
    expect(idsIn(out, 'train')).toHaveLength(3);
  });

  it('promotes the smallest-hash val task to train when all hashed to val', () => {
    const valIds = idsWithBucket(0, 34, 3);
    const out = assignSplits(
      valIds.map((id) => task(id)),
      DEFAULT,
    );
    const smallest = [...valIds].sort((a, b) => (splitHash(42, a) < splitHash(42, b) ? -1 : 1))[0];
    expect(idsIn(out, 'train')).toEqual([smallest]);
    expect(idsIn(out, 'val')).toHaveLength(2);
  });

  it('never promotes test tasks', () => {
    const testIds = idsWithBucket(34, 68, 3);
    const out = assignSplits(
      testIds.map((id) => task(id)),
      { seed: 42, valFraction: 0.34, testFraction: 0.34 },
    );
    expect(idsIn(out, 'test')).toEqual(testIds);
  });

  it('leaves a single real task where its hash put it', () => {
    const [valId] = idsWithBucket(0, 34, 1);
    expect(assignSplits([task(valId ?? '')], DEFAULT)[0]?.split).toBe('val');
  });

  it('rounds cut points like Python (half to even)', () => {
    // round(12.5) == 12 in Python, so bucket 12 is train, not val.
    const [id12] = idsWithBucket(12, 13, 1);
    const [id0] = idsWithBucket(0, 1, 1);
    const out = assignSplits([task(id12 ?? ''), task(id0 ?? '')], {
      seed: 42,
      valFraction: 0.125,
      testFraction: 0,
    });
    expect(out.map((t) => t.split)).toEqual(['train', 'val']);
  });

  it.each([
    [{ valFraction: -0.1, testFraction: 0 }, /val fraction must be between 0 and 1/],
    [{ valFraction: 0.3, testFraction: 1.5 }, /test fraction must be between 0 and 1/],
    [{ valFraction: Number.NaN, testFraction: 0 }, /val fraction must be between 0 and 1/],
    [{ valFraction: 0.6, testFraction: 0.4 }, /val fraction \+ test fraction must be < 1/],
    [{ valFraction: 1, testFraction: 0 }, /must be < 1/],
  ])('rejects fractions %j', (fractions, message) => {
    expect(() => assignSplits([task('a')], { seed: 42, ...fractions })).toThrow(InputError);
    expect(() => assignSplits([task('a')], { seed: 42, ...fractions })).toThrow(message);
  });
});

describe('assignSplitsWithinGroups', () => {
  const groupOf = (t: T): string => t.group ?? '';

  function splitsOfGroup(tasks: readonly T[], group: string): Split[] {
    return tasks.filter((t) => t.group === group).map((t) => t.split);
  }

  it('keeps hash splits where groups already have train and val', () => {
    const tasks = ids('persona_wrap-answer', 12).map((id) => task(id, 'real', 'g'));
    const grouped = assignSplitsWithinGroups(tasks, groupOf, DEFAULT);
    expect(grouped.map((t) => t.split)).toEqual(assignSplits(tasks, DEFAULT).map((t) => t.split));
  });

  it('gives every group of two or more a train and a val member', () => {
    const allTrain = idsWithBucket(34, 100, 3, 'a');
    const allVal = idsWithBucket(0, 34, 2, 'b');
    const single = idsWithBucket(0, 34, 1, 'c');
    const tasks = [
      ...allTrain.map((id) => task(id, 'real', 'A')),
      ...allVal.map((id) => task(id, 'real', 'B')),
      ...single.map((id) => task(id, 'real', 'C')),
    ];
    const out = assignSplitsWithinGroups(tasks, groupOf, DEFAULT);
    expect(splitsOfGroup(out, 'A').filter((s) => s === 'val')).toHaveLength(1);
    expect(splitsOfGroup(out, 'A').filter((s) => s === 'train')).toHaveLength(2);
    expect(splitsOfGroup(out, 'B').sort()).toEqual(['train', 'val']);
    expect(splitsOfGroup(out, 'C')).toEqual(['val']);
  });

  it('leaves sessions out per lesson: every lesson judging two tasks or more gets a train and a validation one', () => {
    // One task per session; a session may be evidence of two lessons (its tags), and the groups overlap.
    const trainOnly = idsWithBucket(34, 100, 4, 'l');
    const lessonsOf = new Map<string, string[]>([
      [trainOnly[0] ?? '', ['pnpm']],
      [trainOnly[1] ?? '', ['pnpm', 'commit']],
      [trainOnly[2] ?? '', ['commit']],
      [trainOnly[3] ?? '', ['pnpm']],
    ]);
    const tasks = trainOnly.map((id) => task(id));
    const out = assignSplitsWithinGroups(tasks, (t) => lessonsOf.get(t.id) ?? [], DEFAULT);
    for (const lesson of ['pnpm', 'commit']) {
      const splits = out.filter((t) => lessonsOf.get(t.id)?.includes(lesson)).map((t) => t.split);
      expect(splits, lesson).toContain('train');
      expect(splits, lesson).toContain('val');
    }
  });

  it('promotes the smallest hash inside the group', () => {
    const allTrain = idsWithBucket(34, 100, 3, 'a');
    const out = assignSplitsWithinGroups(
      allTrain.map((id) => task(id, 'real', 'A')),
      groupOf,
      DEFAULT,
    );
    const smallest = [...allTrain].sort((a, b) => (splitHash(42, a) < splitHash(42, b) ? -1 : 1))[0];
    expect(idsIn(out, 'val')).toEqual([smallest]);
  });

  it('takes a test member when the group cannot otherwise have both', () => {
    const opts = { seed: 42, valFraction: 0.2, testFraction: 0.3 };
    const [trainId] = idsWithBucket(50, 100, 1, 'a');
    const testIds = idsWithBucket(20, 50, 2, 't');
    const out = assignSplitsWithinGroups(
      [task(trainId ?? '', 'real', 'A'), ...testIds.map((id) => task(id, 'real', 'A'))],
      groupOf,
      opts,
    );
    expect(out.map((t) => t.split).sort()).toEqual(['test', 'train', 'val']);
  });

  it('ignores dream tasks when checking groups, and keeps them in train', () => {
    const [trainId] = idsWithBucket(34, 100, 1, 'a');
    const [valId] = idsWithBucket(0, 34, 1, 'd');
    const out = assignSplitsWithinGroups(
      [task(trainId ?? '', 'real', 'A'), task(valId ?? '', 'dream', 'A')],
      groupOf,
      DEFAULT,
    );
    expect(out.map((t) => t.split)).toEqual(['train', 'train']);
  });

  it('still applies the global guarantees when every group is a singleton', () => {
    const trainIds = idsWithBucket(34, 100, 3);
    const out = assignSplitsWithinGroups(
      trainIds.map((id) => task(id, 'real', id)),
      groupOf,
      DEFAULT,
    );
    expect(idsIn(out, 'val')).toHaveLength(1);
  });

  it('holds out nothing when the val fraction is 0', () => {
    const none = { seed: 42, valFraction: 0, testFraction: 0 };
    const tasks = [...ids('a', 3).map((id) => task(id, 'real', 'A')), ...ids('b', 2).map((id) => task(id))];
    expect(idsIn(assignSplitsWithinGroups(tasks, groupOf, none), 'val')).toEqual([]);
    expect(idsIn(assignSplits(tasks, none), 'val')).toEqual([]);
  });

  it('validates fractions', () => {
    expect(() =>
      assignSplitsWithinGroups([], groupOf, { seed: 1, valFraction: 0.9, testFraction: 0.2 }),
    ).toThrow(InputError);
  });
});
