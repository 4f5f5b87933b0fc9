/**
 * YAML aliases share one value among many places: nine anchors of ten aliases each stand for a
 * billion values in eleven lines, and anything that walks the loaded document (a tree conversion,
 * JSON.stringify) expands every one. Without aliases a document has at most about one value per
 * character, so a document may stand for no more values than its text has characters (with a
 * floor for short files that alias a little), and may nest no deeper than MAX_YAML_DEPTH.
 */
/** js-yaml stops the text at 100 levels; aliases inside aliases can nest deeper, though no real file goes far past it. */
const MAX_YAML_DEPTH = 1_000;

function expansionLimit(text: string): number {
  return Math.max(10_000, text.length);
}

/**
 * Why a loaded YAML document is too large once its aliases are expanded, or undefined when it is
 * not. Counted without recursion, and stopping at the limit, so the count itself stays cheap.
 */
export function yamlExpansionProblem(document: unknown, text: string): string | undefined {
  const limit = expansionLimit(text);
  let values = 0;
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > limit) return `its aliases expand to more than ${limit} values, more than the text could hold without them`;
    if (depth > MAX_YAML_DEPTH) return `its aliases nest it deeper than ${MAX_YAML_DEPTH} levels`;
    if (value !== null && typeof value === 'object') for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}
