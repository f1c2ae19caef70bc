/**
 * Learning-rate schedules: how many edits a step may apply. The value is a pure function of the global
 * step (1-based), so a resumed run lands on the same point of the schedule as an uninterrupted one.
 *
 * Rounding is round-half-to-even (Python's `round`, which the reference uses): with max 4, min 2 over
 * 40 steps the linear value at step 30 is exactly 2.5 and becomes 2, not 3 as `Math.round` would give.
 */
export const LR_SCHEDULES = ['constant', 'linear', 'cosine'] as const;
export type LrScheduleName = (typeof LR_SCHEDULES)[number];

export interface LrSchedule {
  schedule: LrScheduleName;
  /** The peak learning rate (edits per step). 0 means the run applies no edits at all. */
  max: number;
  /** The floor the decay ends at. */
  min: number;
  /** Steps of linear warm-up from 1 to `max` before the decay starts (0 = none). */
  warmupSteps: number;
  totalSteps: number;
}

/** Round half to even: 0.5 → 0, 1.5 → 2, 2.5 → 2, 3.5 → 4. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The learning rate at global step `step` (1-based). Never below 1 unless `max` is 0. */
export function learningRateAt(s: LrSchedule, step: number): number {
  if (s.max <= 0) return 0;
  const min = Math.min(Math.max(0, s.min), s.max);
  const clampFloor = (v: number): number => Math.max(1, Math.min(s.max, v));
  const warmup = Math.max(0, s.warmupSteps);
  if (step <= warmup) return clampFloor(roundHalfEven((s.max * step) / warmup));
  if (s.schedule === 'constant') return s.max;
  const span = s.totalSteps - warmup;
  if (span <= 1) return s.max;
  const t = Math.min(step - warmup, span) / span;
  const raw =
    s.schedule === 'linear'
      ? s.max + (min - s.max) * t
      : min + 0.5 * (s.max - min) * (1 + Math.cos(Math.PI * t));
  return clampFloor(Math.max(min, roundHalfEven(raw)));
}
