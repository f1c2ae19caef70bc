/**
 * Work that goes on past a wait for an answer (`AnswerPendingError`): a night that waits (handoff,
 * batch) asks, in one invocation, every request that does not depend on an unanswered one, then
 * stops with the waits thrown as one. Interactive nights never wait, so nothing here changes them.
 */
import { AnswerPendingError } from './errors.js';

/**
 * A rejection handler that names a wait for an answer by the phase it happened in (see
 * `AnswerPendingError`) and rethrows anything else: `await work().catch(waitsIn('skill reflect'))`.
 */
export const waitsIn =
  (phase: string) =>
  (err: unknown): never => {
    throw err instanceof AnswerPendingError ? err.inPhase(phase) : err;
  };

/**
 * Await branches that do not depend on each other, in the order given. Each runs to its end even when
 * another waits for an answer, so a night that waits (handoff, batch) asks every request of a round
 * before it stops, and what it reports waiting is all there is; the waits are then thrown as one. Any
 * other failure is thrown instead (the first in order), once every branch has settled.
 */
export async function allOrWait<T>(branches: Iterable<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(branches);
  const failed = settled.find(
    (s): s is PromiseRejectedResult => s.status === 'rejected' && !(s.reason instanceof AnswerPendingError),
  );
  if (failed) throw failed.reason;
  const waits = settled.flatMap((s) =>
    s.status === 'rejected' && s.reason instanceof AnswerPendingError ? [s.reason] : [],
  );
  if (waits.length > 0) throw AnswerPendingError.join(waits);
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/**
 * The waits met by work that goes on past them, one step after another (the order of an interactive
 * night is kept): `pass` keeps a wait and returns undefined, `rethrow` throws the waits as one.
 */
export class WaitList {
  private readonly waits: AnswerPendingError[] = [];

  async pass<T>(work: Promise<T>): Promise<T | undefined> {
    try {
      return await work;
    } catch (err) {
      if (!(err instanceof AnswerPendingError)) throw err;
      this.waits.push(err);
      return undefined;
    }
  }

  get waiting(): boolean {
    return this.waits.length > 0;
  }

  /** Throw the waits met so far as one; nothing when there were none. */
  rethrow(): void {
    if (this.waits.length > 0) throw AnswerPendingError.join(this.waits);
  }
}
