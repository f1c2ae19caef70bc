/**
 * A memoised one-argument function whose cache is dropped when it holds `max` results: the miner and
 * the judges parse the same few command lines and patterns thousands of times a night, and a night
 * over a huge history must not keep every one.
 */
export function boundedMemo<K, V>(compute: (key: K) => V, max: number): (key: K) => V {
  const cache = new Map<K, V>();
  return (key: K): V => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(key, value);
    return value;
  };
}
