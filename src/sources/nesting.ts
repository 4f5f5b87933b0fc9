import { joinPath, type Path } from '../rules/shared/location.js';

/**
 * How deep a snapshot may nest. The service's payloads stay far below it (a dashboard's widgets in
 * widgets, rule groups in rule groups: a few dozen levels at most); past it, every recursive walk
 * of ours (validation, redaction, rules, JSON.stringify) would risk the call stack instead.
 */
export const MAX_NESTING_DEPTH = 100;

/** The depth of the deepest value, measured without recursion so any input can be measured. */
function nestingDepth(document: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (value !== null && typeof value === 'object') for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * `document`, with every array or object that sits deeper than MAX_NESTING_DEPTH replaced by
 * null, and the paths of what was cut. The document itself is returned when nothing is too deep.
 */
export function pruneDeepNesting(document: unknown): { document: unknown; cut: string[] } {
  if (nestingDepth(document) <= MAX_NESTING_DEPTH) return { document, cut: [] };
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
