/**
 * `target.push(...items)` passes every item as an argument, and past about 100,000 (a repository of
 * 150,000 files, 200,000 stale baseline entries) that overflows the stack. This appends in a loop.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
