import type { OrgSnapshot } from '../model/snapshot.js';

/** Object keys sorted at every depth, arrays in their order: the same org gives the same bytes. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
  return sorted;
}

/** org-snapshot/1, pretty-printed with a stable key order, so snapshots diff cleanly in a ticket. */
export function renderSnapshot(snapshot: OrgSnapshot): string {
  return `${JSON.stringify(sortKeysDeep(snapshot), null, 2)}\n`;
}
