import { REDACTED } from './token-shapes.js';

/**
 * The last line of defence for the run's own credentials. Redaction by key name (src/sources/redact.ts)
 * cannot know that a gateway echoed the request into an error message, or that a script pasted the
 * token into a URL: here every string bound for a report, a snapshot or stderr loses the token, the
 * client id and secret wherever they appear, as written and in the forms they travel in.
 */

/** Shorter values are no credential of the service, and cutting them would garble every report. */
export const MIN_CREDENTIAL_LENGTH = 8;

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
export const MIN_ECHOED_PART = 12;

/** Every MIN_ECHOED_PART-long piece of each credential long enough to be cut in parts. */
function credentialPieces(credentials: readonly string[]): Set<string> {
  const pieces = new Set<string>();
  for (const value of credentials) {
    if (value.length < MIN_ECHOED_PART + 4) continue;
    for (let at = 0; at + MIN_ECHOED_PART <= value.length; at++) pieces.add(value.slice(at, at + MIN_ECHOED_PART));
  }
  return pieces;
}

/** `text` with every run of a credential's characters at least MIN_ECHOED_PART long replaced; linear in the text. */
function cutEchoedParts(text: string, pieces: ReadonlySet<string>): string {
  if (pieces.size === 0 || text.length < MIN_ECHOED_PART) return text;
  let result = '';
  let kept = 0;
  let at = 0;
  while (at + MIN_ECHOED_PART <= text.length) {
    if (!pieces.has(text.slice(at, at + MIN_ECHOED_PART))) {
      at++;
      continue;
    }
    // Extend the run while each next window is still a piece of a credential.
    let end = at + MIN_ECHOED_PART;
    while (end < text.length && pieces.has(text.slice(end - MIN_ECHOED_PART + 1, end + 1))) end++;
    result += text.slice(kept, at) + REDACTED;
    kept = end;
    at = end;
  }
  return kept === 0 ? text : result + text.slice(kept);
}

/** A function that removes the credentials from one string (identity when there are none), whole or in echoed parts. */
export function credentialRedactor(credentials: readonly string[]): (text: string) => string {
  const forms = credentialForms(credentials);
  if (forms.length === 0) return (text) => text;
  const pieces = credentialPieces(forms);
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
    return cutEchoedParts(result, pieces);
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

/** A writer (stderr) that never prints the credentials. */
export function credentialSafeWriter(write: (text: string) => void, credentials: readonly string[]): (text: string) => void {
  const clean = credentialRedactor(credentials);
  return (text) => write(clean(text));
}
