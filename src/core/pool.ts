import { AnswerPendingError } from './errors.js';

/**
 * Run `work` over `items` with at most `limit` calls in flight; results keep the input order. An item
 * waiting for a handoff answer does not stop the others: the first such wait is rethrown at the end.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  // A holder, not a `let`: it is set inside the workers' closures.
  const waiting: { first: AnswerPendingError | null } = { first: null };
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (err) {
        if (!(err instanceof AnswerPendingError)) throw err;
        waiting.first ??= err;
      }
    }
  };
  const n = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (waiting.first) throw waiting.first;
  return results;
}
