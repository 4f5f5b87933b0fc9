import { joinPath, type Path } from '../catalog/location.js';

/**
 * How deep a snapshot may nest. The service's payloads stay far below it (a dashboard's widgets in
 * widgets, rule groups in rule groups: a few dozen levels at most); past it, every recursive walk
 * of ours (validation, redaction, rules, JSON.stringify) would risk the call stack instead.
 */
export const MAX_NESTING_DEPTH = 100;

/**
 * Whether any value sits deeper than `limit` (the document itself at depth 0). Recursive, but never past `limit` + 1 calls deep, so
 * any input can be measured; no list of pending values is built (a million entities made ten
 * million of them, a tenth of the snapshot check's time).
 */
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  // Its children, if it has any, are past the limit.
  if (limit === 0) return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (deeperThan(value[index], limit - 1)) return true;
    return false;
  }
  for (const key in value) if (Object.hasOwn(value, key) && deeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}

/**
 * `document`, with every array or object that sits deeper than MAX_NESTING_DEPTH replaced by
 * null, and the paths of what was cut. The document itself is returned when nothing is too deep.
 */
export function pruneDeepNesting(document: unknown): { document: unknown; cut: string[] } {
  if (!deeperThan(document, MAX_NESTING_DEPTH)) return { document, cut: [] };
  const cut: string[] = [];
  const copy = (value: unknown, path: Path): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (path.length >= MAX_NESTING_DEPTH) {
      cut.push(joinPath(...path));
      return null;
    }
    if (Array.isArray(value)) return value.map((item, index) => copy(item, [...path, index]));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item, [...path, key])]));
  };
  return { document: copy(document, []), cut };
}
