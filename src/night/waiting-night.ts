/**
 * A night that waits for answers: a handoff night (a person or an agent answers a queue) or a `--batch`
 * night (the providers' batch engines answer). Both are one kind of night. Each `run` replays it from
 * the state its first invocation saved, answers what was answered, queues (or batches) every request
 * that does not wait on an unanswered one and stops; the `run` after the last answer finishes it. This
 * interface is all `run-night.ts` knows of either (`handoff-night.ts`, `batch-night.ts`).
 */
import type { AnswerPendingError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { NightReport, WaitingSummary } from './night-report.js';
import type { ResumableState } from './resumable-night.js';

/** What a report says of where a waiting night's answers come from: its queue or its batches. */
export type AnswerSource = Pick<NightReport, 'handoff' | 'batch'>;

/** An invocation that stops to wait: what it waits for, and where the answers come from. */
export interface WaitingStop {
  waiting: WaitingSummary;
  source: AnswerSource;
}

/** How an invocation goes on: replay the night, wait again without replaying, or the night ended. */
export type Resumption =
  | { kind: 'replay' }
  | ({ kind: 'wait' } & WaitingStop)
  | { kind: 'ended'; stopped: 'batch_failed'; reason: string; source: AnswerSource };

export interface WaitingNight {
  /** The `stopped` of an invocation that waits. */
  readonly waitsAs: 'waiting_handoff' | 'waiting_batch';
  /** What the first invocation saved once its mining finished; null before. */
  readonly state: ResumableState | null;
  /** When the night started (its first invocation); null when this invocation starts it. */
  readonly started: number | null;
  /** Keep what the rest of the night depends on (its config, tasks and mining spend). */
  saveState(state: Omit<ResumableState, 'format'>): void;
  /** The store row the last invocation started (a killed one left it running). */
  lastInvocation(): number | null;
  rememberInvocation(nightId: number): void;
  /** Before replaying: whether the answers the night waits for may have come (a batch night polls). */
  resume(logger: Logger): Promise<Resumption>;
  /** This invocation stops to wait: send what it queued (a batch) and say what the night waits for. */
  wait(pending: AnswerPendingError, logger: Logger): Promise<WaitingStop>;
  /** The night has every answer and ran to its end: what its report says, then its state is removed. */
  finish(at: { home: string; clock: { now(): number }; logger: Logger }): AnswerSource;
  /** The invocation failed: remove what a later `run` must not take up again. */
  fail(): void;
}

/** How many of `purposes` there are of each, in the order first met. */
export function countByPurpose(purposes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of purposes) counts[p] = (counts[p] ?? 0) + 1;
  return counts;
}
