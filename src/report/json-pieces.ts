/**
 * JSON.stringify's text made piece by piece (issue 41): a report of 130,000 findings is a 117 MB
 * string, and JSON.stringify of the whole held it beside its own working copy and every later
 * rewrite of it. The pieces, joined, are JSON.stringify(value, null, indent) byte for byte. Each
 * piece is a whole value (a finding, a string) or the punctuation between two values, so no string
 * spans two pieces: a pass over one piece at a time (an escape, a redaction) sees every string whole.
 */

/** How deep the containers are opened; below, a value is one JSON.stringify (a finding is at depth 2). */
const OPENED_DEPTH = 3;

/** Pieces of `JSON.stringify(value, null, indent)` (`indent` 0: compact). */
export function* jsonPieces(value: unknown, indent = 0): Generator<string> {
  yield* valuePieces(value, indent, '', 0);
}

/** What JSON.stringify would write for `value` as a property, or undefined where it leaves the property out. */
function* valuePieces(value: unknown, indent: number, margin: string, depth: number): Generator<string> {
  if (depth >= OPENED_DEPTH || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const text = JSON.stringify(value, null, indent || undefined);
    // Only the structure's own line breaks are raw (JSON escapes them in strings): each one is indented to where the value stands.
    yield indent > 0 && margin !== '' ? text.replaceAll('\n', `\n${margin}`) : text;
    return;
  }
  const inner = indent > 0 ? margin + ' '.repeat(indent) : '';
  const open = indent > 0 ? `\n${inner}` : '';
  const between = indent > 0 ? `,\n${inner}` : ',';
  const close = indent > 0 ? `\n${margin}` : '';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield `[${open}`;
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield between;
      const item: unknown = value[i];
      // In an array, what JSON has no text for is written as null.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* valuePieces(item, indent, inner, depth + 1);
    }
    yield `${close}]`;
    return;
  }
  const colon = indent > 0 ? ': ' : ':';
  let first = true;
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? `{${open}` : between}${JSON.stringify(key)}${colon}`;
    first = false;
    yield* valuePieces(item, indent, inner, depth + 1);
  }
  yield first ? '{}' : `${close}}`;
}
