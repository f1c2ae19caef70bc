import { describe, expect, it } from 'vitest';
import { learningRateAt, roundHalfEven, type LrSchedule } from './lr-schedule.js';

const sched = (over: Partial<LrSchedule>): LrSchedule => ({
  schedule: 'cosine',
  max: 4,
  min: 2,
  warmupSteps: 0,
  totalSteps: 40,
  ...over,
});
const values = (s: LrSchedule): number[] =>
  Array.from({ length: s.totalSteps }, (_, i) => learningRateAt(s, i + 1));

describe('roundHalfEven', () => {
  it('rounds halves to the even neighbour like Python', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001, 7].map(roundHalfEven)).toEqual([0, 2, 2, 4, 2, 3, 7]);
  });
});

describe('learningRateAt', () => {
  it('linear 10 -> 2 over 4 steps is 8, 6, 4, 2', () => {
    expect(values(sched({ schedule: 'linear', max: 10, min: 2, totalSteps: 4 }))).toEqual([8, 6, 4, 2]);
  });

  it('cosine 10 -> 2 over 4 steps is 9, 6, 3, 2', () => {
    expect(values(sched({ max: 10, min: 2, totalSteps: 4 }))).toEqual([9, 6, 3, 2]);
  });

  it('the reference default (cosine 4 -> 2 over 40): 1-13 are 4, 14-26 are 3, 27-40 are 2', () => {
    const v = values(sched({}));
    expect(v.slice(0, 13).every((x) => x === 4)).toBe(true);
    expect(v.slice(13, 26).every((x) => x === 3)).toBe(true);
    expect(v.slice(26).every((x) => x === 2)).toBe(true);
  });

  it('linear 4 -> 2 over 40 gives 2 at step 30 (2.5 rounds to even), 3 at step 29', () => {
    const s = sched({ schedule: 'linear' });
    expect(learningRateAt(s, 29)).toBe(3);
    expect(learningRateAt(s, 30)).toBe(2);
    expect(learningRateAt(s, 10)).toBe(4);
    expect(learningRateAt(s, 11)).toBe(3);
  });

  it('constant stays at max; total steps 0 or 1 gives max; past the end it plateaus at min', () => {
    expect(values(sched({ schedule: 'constant', max: 3, totalSteps: 5 }))).toEqual([3, 3, 3, 3, 3]);
    expect(learningRateAt(sched({ totalSteps: 1 }), 1)).toBe(4);
    expect(learningRateAt(sched({ totalSteps: 0 }), 1)).toBe(4);
    expect(learningRateAt(sched({ schedule: 'linear', totalSteps: 4 }), 99)).toBe(2);
  });

  it('never drops below 1, unless max is 0', () => {
    expect(values(sched({ schedule: 'linear', max: 3, min: 0, totalSteps: 3 }))).toEqual([2, 1, 1]);
    expect(values(sched({ max: 0, min: 0, totalSteps: 3 }))).toEqual([0, 0, 0]);
  });

  it('warms up linearly to max, then decays over the remaining steps', () => {
    const s = sched({ schedule: 'linear', max: 8, min: 2, warmupSteps: 4, totalSteps: 7 });
    // Warm-up 8*1/4=2, 8*2/4=4, 6, 8; then linear 8 -> 2 over 3 steps: 6, 4, 2.
    expect(values(s)).toEqual([2, 4, 6, 8, 6, 4, 2]);
    expect(learningRateAt(sched({ schedule: 'constant', max: 3, warmupSteps: 4 }), 1)).toBe(1);
  });
});
