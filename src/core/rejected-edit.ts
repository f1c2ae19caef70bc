/**
 * What a refused edit means for later nights. An edit that made the validation score worse (it lowered
 * the score, or a validation task regressed with it) is never proposed again; one with no measurable
 * effect may come back when the failures it was meant for persist.
 */

/** The reason given to edits refused because a validation task got worse (per-task no-regression). */
export const REGRESSION_REASON = 'a validation task regressed';
/** The same reason as stores written before validation was named for what it is still hold it. */
export const LEGACY_REGRESSION_REASON = 'a held-out task regressed';

export interface RefusedEditFacts {
  /** Gate score change the edit caused (negative = it hurt). */
  delta: number;
  reason?: string;
}

export function madeHeldOutWorse(r: RefusedEditFacts): boolean {
  return r.delta < 0 || r.reason === REGRESSION_REASON || r.reason === LEGACY_REGRESSION_REASON;
}

/** An edit's text as the buffers compare it: case and runs of whitespace do not make two edits differ. */
export const normalizeEditContent = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
