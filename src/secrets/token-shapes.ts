import { compareText } from '../compare-text.js';

/**
 * Secrets known by their value, whatever key holds them (issue 23): a GitHub token in an action's
 * body, a Slack webhook under a plain `url`, a bearer header pasted into a string. Redaction by key
 * name (src/sources/redact.ts) cannot see these; every org or file value copied into an output
 * passes through here too. Each pattern is linear on any text: it can only start at a fixed prefix.
 */

/** What a secret becomes in every output. */
export const REDACTED = '<redacted>';

interface TokenShape {
  /** Plural words for the note: "GitHub tokens". */
  name: string;
  /** One of them, for a line about one: "a GitHub token". */
  one: string;
  pattern: RegExp;
  /**
   * Fixed text every value of the shape contains, as a pattern source: the one scan that lets a
   * string holding none of the shapes' hints skip the shape scans (TOKEN_SHAPE_HINT).
   */
  hint: string;
  /** The text kept: a prefix that says what was there (the webhook's host, the header's scheme). */
  keep?: (match: RegExpExecArray) => string;
}

const SHAPES: readonly TokenShape[] = [
  { name: 'private keys', one: 'a private key', pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[A-Za-z0-9+/=\s:,-]{0,20000}?-----END [A-Z ]{0,40}PRIVATE KEY-----/g, hint: '-----BEGIN ' },
  { name: 'Slack webhook URLs', one: 'a Slack webhook URL', pattern: /(https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]+/gi, hint: 'hooks\\.slack\\.com\\/', keep: (m) => m[1]! },
  { name: 'GitHub tokens', one: 'a GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g, hint: 'gh[pousr]_|github_pat_' },
  { name: 'AWS access keys', one: 'an AWS access key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g, hint: 'AKIA|ASIA' },
  { name: 'Slack tokens', one: 'a Slack token', pattern: /(?<![A-Za-z0-9-])xox[abposr]-[A-Za-z0-9-]{10,255}/g, hint: 'xox[abposr]-' },
  { name: 'Google API keys', one: 'a Google API key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, hint: 'AIza' },
  { name: 'Stripe keys', one: 'a Stripe key', pattern: /(?<![A-Za-z0-9])(?:sk|rk)_live_[0-9A-Za-z]{16,255}/g, hint: '_live_' },
  { name: 'JWTs', one: 'a JWT', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{10,4096}/g, hint: 'eyJ' },
  // A header written into a string: `Authorization: Bearer abc…`. `{{ … }}` templates name a secret without holding it.
  { name: 'bearer or basic credentials', one: 'a bearer or basic credential', pattern: /(?<![A-Za-z0-9])((?:Bearer|Basic|Token)[ \t]+)([A-Za-z0-9._~+/=-]{16,4096})/gi, hint: 'Bearer|Basic|Token', keep: (m) => m[1]! },
];

/**
 * How many values of each shape were redacted, for the note that says so; and every value any
 * redaction cut (by key, in a URL, by shape), as it stood: a value known to be a secret anywhere is
 * cut from every output by value too, whichever path quotes it (a note on its shape, a description
 * repeating it), as the run's credentials are (credentials.ts).
 */
export class RedactionTally extends Map<string, number> {
  readonly secrets = new Set<string>();

  /** A value a redaction replaced; the marker itself (a snapshot we wrote) and blanks are none. */
  secret(value: string): void {
    const trimmed = value.trim();
    if (trimmed !== '' && trimmed !== REDACTED) this.secrets.add(trimmed);
  }

  /** Another tally's counts and values added to this one's. */
  addAll(other: RedactionTally): void {
    for (const [shape, count] of other) this.set(shape, (this.get(shape) ?? 0) + count);
    for (const value of other.secrets) this.secrets.add(value);
  }
}

/**
 * The shapes' hints in one pattern: a string without any of them, as nearly every string in a
 * report is, is left as it is after one scan instead of one per shape. Case-insensitive, so it only
 * ever says yes more often than the shapes would.
 */
const TOKEN_SHAPE_HINT = new RegExp(SHAPES.map((shape) => shape.hint).join('|'), 'i');
/** The shortest value any shape matches (a Slack token: `xoxb-` and 10 characters): a shorter string, as most are, needs no scan at all. */
const SHORTEST_SHAPED = 15;

/** `text` with every value of a known token shape replaced by the marker; `tally` counts them. */
export function redactTokenShapes(text: string, tally?: RedactionTally): string {
  if (text.length < SHORTEST_SHAPED || !TOKEN_SHAPE_HINT.test(text)) return text;
  let result = text;
  for (const shape of SHAPES) {
    shape.pattern.lastIndex = 0;
    if (!shape.pattern.test(result)) continue;
    shape.pattern.lastIndex = 0;
    result = result.replace(shape.pattern, (...args: unknown[]) => {
      const groups = args.slice(0, -2) as string[];
      const match = Object.assign(groups, { index: 0, input: '' }) as unknown as RegExpExecArray;
      const kept = shape.keep?.(match) ?? '';
      tally?.set(shape.name, (tally.get(shape.name) ?? 0) + 1);
      tally?.secret(groups[0]!.slice(kept.length));
      return `${kept}${REDACTED}`;
    });
  }
  return result;
}

/** Every value of a known token shape in `text`, shape by shape, with the shape it has. */
function* tokenShapeMatches(text: string): Generator<[TokenShape, RegExpExecArray]> {
  for (const shape of SHAPES) {
    shape.pattern.lastIndex = 0;
    for (const match of text.matchAll(shape.pattern)) yield [shape, match as RegExpExecArray];
  }
}

/** Every value of a known token shape in `text`, with words for what it is ("a GitHub token"). */
export function tokenShapedValues(text: string): { what: string; value: string }[] {
  return [...tokenShapeMatches(text)].map(([shape, match]) => ({ what: shape.one, value: match[0] }));
}

/**
 * Where the values of known token shapes stand in `text`, as [start, end) ranges (a kept prefix
 * such as a webhook's host left out): a cut that falls inside one takes the whole value, so no
 * half-cut token is left that its shape no longer matches.
 */
export function tokenShapeSpans(text: string): [number, number][] {
  return [...tokenShapeMatches(text)].map(([shape, match]) => [match.index + (shape.keep?.(match).length ?? 0), match.index + match[0].length]);
}

/**
 * `value` (a report, a kit file's JSON) with every string's token shapes redacted, keys included:
 * `value` itself when nothing in it is (a report of 130,000 findings was copied whole for nothing,
 * issue 41), else a copy. Iterative: input nesting is unbounded.
 */
export function redactTokenShapesDeep<T>(value: T, tally?: RedactionTally): T {
  if (holdsNoTokenShape(value)) return value;
  const clean = (text: string) => redactTokenShapes(text, tally);
  const copy: { value: unknown } = { value: undefined };
  const stack: { from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }[] = [{ from: value, into: copy as unknown as Record<string, unknown>, key: 'value' }];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop()!;
    let made: unknown;
    if (typeof from === 'string') made = clean(from);
    else if (Array.isArray(from)) {
      const list: unknown[] = new Array(from.length);
      from.forEach((item, index) => stack.push({ from: item, into: list, key: index }));
      made = list;
    } else if (from !== null && typeof from === 'object') {
      const object: Record<string, unknown> = {};
      // Keys first, in order, so the copy keeps the key order (byte-identical outputs).
      for (const [name, item] of Object.entries(from)) {
        const cleanName = clean(name);
        // Defined, not assigned: a key named `__proto__` stays a key.
        if (cleanName === '__proto__') Object.defineProperty(object, cleanName, { value: undefined, writable: true, enumerable: true, configurable: true });
        else object[cleanName] = undefined;
        stack.push({ from: item, into: object, key: cleanName });
      }
      made = object;
    } else made = from;
    (into as Record<string | number, unknown>)[key] = made;
  }
  return copy.value as T;
}

/** Whether redactTokenShapesDeep would copy `value` unchanged: no token shape in a string or key, and every container a plain object or an array (a copy makes any other object plain). */
function holdsNoTokenShape(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (redactTokenShapes(item) !== item) return false;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object') {
      const prototype: unknown = Object.getPrototypeOf(item);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const [key, child] of Object.entries(item)) {
        if (redactTokenShapes(key) !== key) return false;
        stack.push(child);
      }
    }
  }
  return true;
}

/** The note that says what was redacted, or none. */
export function redactionNote(tally: RedactionTally, where: string): string | undefined {
  if (tally.size === 0) return undefined;
  const parts = [...tally].sort(([a], [b]) => compareText(a, b)).map(([name, count]) => `${count} ${name}`);
  return `secrets redacted by their value (whatever key held them) ${where}: ${parts.join(', ')}; each is shown as ${REDACTED}`;
}
