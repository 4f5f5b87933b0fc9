/**
 * `target.push(...items)` passes every item as an argument, and past about 100,000 (a repository of
 * 150,000 files, 200,000 stale baseline entries) that overflows the stack. This appends in a loop.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** Each value once, in the order first met. */
export const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** The first value of each key, in the order first met. */
export function uniqueBy<T>(values: readonly T[], key: (value: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of values) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}
