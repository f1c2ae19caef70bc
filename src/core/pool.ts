import { AnswerPendingError } from './errors.js';
import { Limiter } from './limiter.js';

/**
 * Run `work` over `items` with at most `limit` calls in flight; results keep the input order. An item
 * waiting for an answer does not stop the others: the waits are thrown as one at the end.
 * Any other failure is thrown, and items not started yet are not started.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const limiter = new Limiter(limit);
  // Holders, not `let`s: they are set inside the tasks' closures.
  const state: { waits: AnswerPendingError[]; failed: boolean } = { waits: [], failed: false };
  const results = await Promise.all(
    items.map((item, index) =>
      limiter.run(async (): Promise<R | undefined> => {
        if (state.failed) return undefined;
        try {
          return await work(item, index);
        } catch (err) {
          if (!(err instanceof AnswerPendingError)) {
            state.failed = true;
            throw err;
          }
          state.waits.push(err);
          return undefined;
        }
      }),
    ),
  );
  if (state.waits.length > 0) throw AnswerPendingError.join(state.waits);
  return results as R[];
}
