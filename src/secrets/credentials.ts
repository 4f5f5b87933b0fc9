import { REDACTED, tokenShapeSpans } from './token-shapes.js';

/**
 * The last line of defence for the run's own credentials. Redaction by key name (src/sources/redact.ts)
 * cannot know that a gateway echoed the request into an error message, or that a script pasted the
 * token into a URL: here every string bound for a report, a snapshot or stderr loses the token, the
 * client id and secret wherever they appear, as written and in the forms they travel in.
 */

/** Shorter values are no credential of the service, and cutting them would garble every report. */
const MIN_CREDENTIAL_LENGTH = 8;

/** The credentials a run may hold, from the same variables the connection reads. */
export function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return [env.PORT_TOKEN, env.PORT_CLIENT_ID, env.PORT_CLIENT_SECRET].flatMap((value) => (value?.trim() ? [value.trim()] : []));
}

/**
 * Every spelling of each credential that can reach text: as is, percent-encoded (in a URL),
 * JSON-escaped (quoted inside a body), Base64 (a Basic header; also of `id:secret` pairs), and
 * `Bearer …` falls out of the plain form. Longest first, so a pair is cut before its parts.
 */
export function credentialForms(credentials: readonly string[]): string[] {
  const values = [...new Set(credentials.filter((value) => value.length >= MIN_CREDENTIAL_LENGTH))];
  const forms = new Set<string>();
  for (const value of values) {
    forms.add(value);
    forms.add(encodeURIComponent(value));
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(Buffer.from(value).toString('base64').replace(/=+$/, ''));
  }
  for (const a of values) for (const b of values) if (a !== b) forms.add(Buffer.from(`${a}:${b}`).toString('base64').replace(/=+$/, ''));
  return [...forms].filter((form) => form.length >= MIN_CREDENTIAL_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * A gateway may echo part of the token (its first or last characters, cut at a length limit): any
 * run of this many characters of a credential is cut too. Shorter runs are common words and ids.
 */
const MIN_ECHOED_PART = 12;

/** Every MIN_ECHOED_PART-long piece of each credential long enough to be cut in parts. */
function credentialPieces(credentials: readonly string[]): Set<string> {
  const pieces = new Set<string>();
  for (const value of credentials) {
    if (value.length < MIN_ECHOED_PART + 4) continue;
    for (let at = 0; at + MIN_ECHOED_PART <= value.length; at++) pieces.add(value.slice(at, at + MIN_ECHOED_PART));
  }
  return pieces;
}

/** Where runs of a credential's characters at least MIN_ECHOED_PART long stand in `text`, as [start, end) ranges; linear in the text. */
function echoedRuns(text: string, pieces: ReadonlySet<string>): [number, number][] {
  const runs: [number, number][] = [];
  if (pieces.size === 0 || text.length < MIN_ECHOED_PART) return runs;
  let at = 0;
  while (at + MIN_ECHOED_PART <= text.length) {
    if (!pieces.has(text.slice(at, at + MIN_ECHOED_PART))) {
      at++;
      continue;
    }
    // Extend the run while each next window is still a piece of a credential.
    let end = at + MIN_ECHOED_PART;
    while (end < text.length && pieces.has(text.slice(end - MIN_ECHOED_PART + 1, end + 1))) end++;
    runs.push([at, end]);
    at = end;
  }
  return runs;
}

/** Where each of `strings` stands in `text`. */
function occurrences(text: string, strings: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (const string of strings) for (let at = text.indexOf(string); at >= 0; at = text.indexOf(string, at + string.length)) found.push([at, at + string.length]);
  return found;
}

/**
 * `text` with the ranges `cuts` replaced by the marker, each widened to the token-shaped value it
 * falls in (another JWT sharing the header of ours): a token cut in half no longer matches its
 * shape, and its other half would stay.
 */
function cutRanges(text: string, cuts: readonly [number, number][]): string {
  if (cuts.length === 0) return text;
  const spans = tokenShapeSpans(text);
  const widened = cuts.map(([start, end]): [number, number] => {
    const around = spans.filter(([from, to]) => from < end && start < to);
    return [Math.min(start, ...around.map(([from]) => from)), Math.max(end, ...around.map(([, to]) => to))];
  });
  // Overlapping or touching cuts become one marker.
  const merged: [number, number][] = [];
  for (const range of widened.sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  let result = '';
  let kept = 0;
  for (const [start, end] of merged) {
    result += text.slice(kept, start) + REDACTED;
    kept = end;
  }
  return result + text.slice(kept);
}

/**
 * What a gateway echoes of a token is most often its first or last few characters
 * (`eyJhbGci…Xy9Zk2Qw`), shorter than MIN_ECHOED_PART. So the first and last 8 to 11 characters
 * of each credential are cut as well, wherever they appear (issue 32). Taken from the
 * credential itself (at least 16 characters long: a shorter one is cut whole only), never from
 * its middle, and never when they are a plain word (letters of one case, `-` or `_`): a client id
 * that starts `platform-` must not cut the team `platform` out of every report. What is left are
 * at most 8 strings of 8 or more characters per credential, each holding a digit, a symbol or
 * both cases: in a 10 MB report the chance that one stands there by accident is about 1 in 10^6
 * for a random token.
 */
const MIN_ECHOED_END = 8;
const ECHO_SOURCE_LENGTH = 16;
const PLAIN_WORD = /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)(?:[-_](?:[a-z]+|[A-Z]+|[A-Z][a-z]+)?)*[-_]?$/;

/** The first and last MIN_ECHOED_END to MIN_ECHOED_PART - 1 characters of each long credential, longest first. */
function credentialEnds(credentials: readonly string[]): string[] {
  const ends = new Set<string>();
  for (const value of credentials) {
    if (value.length < ECHO_SOURCE_LENGTH) continue;
    for (let length = MIN_ECHOED_END; length < MIN_ECHOED_PART; length++) {
      for (const end of [value.slice(0, length), value.slice(-length)]) if (!PLAIN_WORD.test(end)) ends.add(end);
    }
  }
  return [...ends].sort((a, b) => b.length - a.length);
}

/** A function that removes the credentials from one string (identity when there are none), whole or in echoed parts. */
export function credentialRedactor(credentials: readonly string[]): (text: string) => string {
  const forms = credentialForms(credentials);
  if (forms.length === 0) return (text) => text;
  const pieces = credentialPieces(forms);
  const ends = credentialEnds([...new Set(credentials.map((value) => value.trim()))]);
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
    return cutRanges(result, [...echoedRuns(result, pieces), ...occurrences(result, ends)]);
  };
}

/**
 * A copy of `value` in which every string, object keys included, has the credentials removed.
 * For our own documents (a report, a snapshot), whose nesting is shallow and bounded.
 */
export function redactCredentials<T>(value: T, credentials: readonly string[]): T {
  const clean = credentialRedactor(credentials);
  if (credentialForms(credentials).length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return clean(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, child]) => [clean(key), walk(child)]));
    }
    return item;
  };
  return walk(value) as T;
}

/**
 * A redactor of the run's credentials that learns more secrets as the run finds them: stderr's
 * learns the org's, cut by its redaction once it is read (its lines before that cannot quote the
 * org); the API client's, each token it exchanges the credentials for.
 */
export function learningRedactor(initial: readonly string[]): { clean: (text: string) => string; learn: (values: readonly string[]) => void } {
  let known = [...initial];
  let clean = credentialRedactor(known);
  const learn = (values: readonly string[]) => {
    known = [...new Set([...known, ...values])];
    clean = credentialRedactor(known);
  };
  return { clean: (text) => clean(text), learn };
}
