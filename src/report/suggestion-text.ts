/**
 * Issue 31: a card's "Suggestion" said again what its Change row shows ("Change it to: X" above
 * "Write instead: X"). The suggestion keeps what only it says (where to write it, what else to
 * do) and refers to the value instead of repeating it, in whatever notation it was written
 * (`ownership = { type = "Direct" }` is the `{"ownership":{"type":"Direct"}}` below it).
 */

/** Characters that differ between notations of one value: quotes, brackets, `:` and `=`, commas, spaces. */
const NOTATION = /[\s"'{}[\]:=,]/;
/** NOTATION's answer for each ASCII code, looked up: one regex test per character of every suggestion cost more than the rest of the view. */
const ASCII_NOTATION: readonly boolean[] = Array.from({ length: 128 }, (_, code) => NOTATION.test(String.fromCharCode(code)));
const isNotation = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return code < 128 ? ASCII_NOTATION[code]! : NOTATION.test(char);
};
/** Characters that close or open a value around its first and last significant character. */
const OPENERS = /["'{[]/;
const CLOSERS = /["'}\] ]/;
/** A lead-in of this many words or fewer, with nothing after the value, says nothing the Change row does not. */
const BARE_LEAD_WORDS = 5;

/**
 * The suggestion as shown beside a Change row whose new value is `rewrite` under `afterLabel`:
 * the value referred to, not repeated; '' when nothing else is left to say. Unchanged when the
 * suggestion does not hold the value.
 */
export function suggestionBesideChange(suggestion: string, rewrite: string | undefined, afterLabel: string): string {
  if (rewrite === undefined || rewrite === '') return suggestion;
  const span = valueSpan(suggestion, rewrite);
  if (span === undefined) return suggestion;
  const before = suggestion.slice(0, span.start);
  const after = suggestion.slice(span.end);
  const lead = before.replace(/[\s:]+$/, '');
  if (/^[\s.;]*$/.test(after) && lead.split(/\s+/).filter(Boolean).length <= BARE_LEAD_WORDS) return '';
  // "with the mapping {…}" under "Migrate-data mapping": "with the mapping shown under …".
  const named = /\bthe ([\w-]+)$/.exec(lead)?.[1]?.toLowerCase() === /([\w-]+)$/.exec(afterLabel)?.[1]?.toLowerCase();
  const reference = named ? `shown under “${afterLabel}”` : `the value under “${afterLabel}”`;
  return `${before}${reference}${after}`;
}

/**
 * suggestionBesideChange with each distinct suggestion, rewrite and label worked out once, for one
 * report: thousands of a big org's findings share them (every blueprint's ownership change, say).
 */
export function suggestionsBesideChange(): typeof suggestionBesideChange {
  const known = new Map<string, string>();
  return (suggestion, rewrite, afterLabel) => {
    if (rewrite === undefined || rewrite === '') return suggestion;
    // Length-prefixed, so no two inputs share a key.
    const key = `${afterLabel.length}:${afterLabel}${rewrite.length}:${rewrite}${suggestion}`;
    let text = known.get(key);
    if (text === undefined) known.set(key, (text = suggestionBesideChange(suggestion, rewrite, afterLabel)));
    return text;
  };
}

/** Where the suggestion writes the value (its last occurrence, whole words only), in its own text; undefined when it does not. */
function valueSpan(text: string, value: string): { start: number; end: number } | undefined {
  const wanted = [...value].filter((char) => !isNotation(char)).join('');
  // Too short to tell a value from a word (a lone identifier): matched only as written.
  if (wanted.length < 3) return undefined;
  const kept: number[] = [];
  let squeezed = '';
  for (let i = 0; i < text.length; i++) {
    if (isNotation(text[i]!)) continue;
    kept.push(i);
    squeezed += text[i];
  }
  for (let at = squeezed.lastIndexOf(wanted); at !== -1; at = at === 0 ? -1 : squeezed.lastIndexOf(wanted, at - 1)) {
    let start = kept[at]!;
    let end = kept[at + wanted.length - 1]! + 1;
    const wordy = (char: string | undefined) => char !== undefined && /\w/.test(char);
    if (wordy(text[start - 1]) && wordy(wanted[0])) continue;
    if (wordy(text[end]) && wordy(wanted.at(-1))) continue;
    while (start > 0 && OPENERS.test(text[start - 1]!)) start--;
    while (end < text.length && CLOSERS.test(text[end]!)) end++;
    while (end > start && text[end - 1] === ' ') end--;
    return { start, end };
  }
  return undefined;
}
