import type { OrgSnapshot } from '../model/snapshot.js';
import { jsonControlsEscaped } from '../terminal-text.js';

/** Snapshot keys that map an identifier to a record (docs/formats.md, the org snapshot). */
const ID_MAPS = ['blueprintPermissions', 'actionPermissions', 'pagePermissions', 'entities'] as const;

const sortedObject = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]));

/**
 * org-snapshot/1, pretty-printed with a stable key order: top-level keys and the identifier maps
 * sorted, so the same org gives the same bytes whatever order requests finished in. Records keep
 * the service's own field order: findings quote them verbatim (evidence is their JSON), so
 * re-sorting their fields would make `analyze --snapshot` differ from the live run it records.
 * The org's C1 controls and `##[` are \u escapes: the same data, no workflow command when printed.
 */
export function renderSnapshot(snapshot: OrgSnapshot): string {
  const document: Record<string, unknown> = sortedObject(snapshot);
  for (const key of ID_MAPS) {
    const map = document[key];
    if (map !== undefined && map !== null && typeof map === 'object') document[key] = sortedObject(map as Record<string, unknown>);
  }
  return `${jsonControlsEscaped(JSON.stringify(document, null, 2))}\n`;
}
