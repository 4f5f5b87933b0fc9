import { dropTreePrototypes, keyedRecord, markPrototypeFree, type JsonValue } from '../model/json.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { REDACTED, redactionNote, RedactionTally, redactTokenShapes } from '../secrets/token-shapes.js';

/**
 * Secrets never reach a snapshot or a report: snapshots are meant to be committed and attached
 * to tickets, and findings quote records verbatim. A key whose name looks like a secret (webhook
 * `security.secret`, `Authorization` headers of WEBHOOK invocations, `clientSecret`, `token`,
 * `password`, `apiKey`, `privateKey`, …) keeps its place but its value becomes this marker, so
 * the shape stays and rules still read everything else.
 */
export { REDACTED };

/** Compared on the key lowercased with `_`, `-`, `.` and spaces removed: `X-Api-Key` → `xapikey`. */
const SECRET_NAME = /secret|token|passw(?:or)?d|passphrase|apikey|privatekey|accesskey|authorization|cookie|credential/;

const normalizeName = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

export function isSecretName(key: string): boolean {
  return (keyKind(key) & SECRET) !== 0;
}

const [SECRET, SECRET_HEADER, HEADERS, SECRET_PARAMETER] = [1, 2, 4, 8];
/** What a key's name says, remembered by key: an org repeats a few hundred names millions of times (a regex each was a fifth of the load). */
const KEY_KINDS = new Map<string, number>();

function keyKind(key: string): number {
  let kind = KEY_KINDS.get(key);
  if (kind !== undefined) return kind;
  const name = normalizeName(key);
  kind = (SECRET_NAME.test(name) ? SECRET | SECRET_HEADER | SECRET_PARAMETER : 0) | (SHORT_SECRET_NAMES.has(name) ? SECRET_HEADER | SECRET_PARAMETER : 0) | (SECRET_HEADER_ENDING.test(name) ? SECRET_HEADER : 0) | (name === 'headers' ? HEADERS : 0);
  // Bounded: a file of distinct keys without end is judged key by key.
  if (KEY_KINDS.size < 10_000) KEY_KINDS.set(key, kind);
  return kind;
}

/**
 * Names too short or too common to judge anywhere (a blueprint may well have a `code` property),
 * but which carry keys in a URL's query (Azure's SAS `sig` and Functions `code`, Google's `key`)
 * and among HTTP headers (`auth`, `X-Functions-Key`, `X-Hub-Signature`): secret in those two places.
 */
const SHORT_SECRET_NAMES: ReadonlySet<string> = new Set(['sig', 'signature', 'code', 'pat', 'key', 'auth', 'sas', 'jwt', 'bearer', 'session', 'sessionid', 'hmac', 'otp']);
const SECRET_HEADER_ENDING = /(?:key|auth|signature|sig|pat)$/;

/**
 * `{{ … }}` templates stay: `{{ .secrets.TOKEN }}` names a secret without holding it, and rules
 * read templates. Split by hand, not by a lazy pattern, so many unclosed `{{` stay linear: the
 * parts alternate text, template, text, …
 */
function splitTemplates(value: string): string[] {
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const open = value.indexOf('{{', at);
    const close = open < 0 ? -1 : value.indexOf('}}', open + 2);
    if (close < 0) break; // no template closes after here, so none starts after here either
    parts.push(value.slice(at, open), value.slice(open, close + 2));
    at = close + 2;
  }
  parts.push(value.slice(at));
  return parts;
}

function redactScalar(value: JsonValue, tally?: RedactionTally): JsonValue {
  if (typeof value === 'number') {
    tally?.secret(String(value));
    return REDACTED;
  }
  if (typeof value !== 'string' || value === '') return value;
  const parts = splitTemplates(value);
  const cut = (part: string) => {
    tally?.secret(part);
    return REDACTED;
  };
  if (parts.length === 1) return cut(value);
  return parts.map((part, index) => (index % 2 === 1 || part.trim() === '' ? part : cut(part))).join('');
}

/**
 * Secrets carried inside an innocent-looking string: the password of `https://user:pw@host`, and
 * the value of a secret-named query parameter (`?token=…`, `&api_key=…`). A Slack or webhook URL
 * under a plain `url` key is the usual case; the rest of the URL, templates included, stays.
 */
function redactInlineSecrets(text: string, tally?: RedactionTally): string {
  // Each pattern is linear on any text (issue 16): a scheme or a parameter name is only tried where
  // one can begin, never from inside a run that was already read. Known token shapes first (issue 23).
  const shaped = redactTokenShapes(text, tally);
  // Issue 33: most strings hold neither a URL's `://` nor a `name=value` parameter, and cannot match
  // below; they are returned as they are, without the three passes (a tenth of the fetch's CPU).
  if (!shaped.includes('://') && !(shaped.includes('=') && (shaped.includes('?') || shaped.includes('&')))) return shaped;
  // Each value cut is recorded in the tally, as found (see RedactionTally).
  return shaped
    .replace(/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)([^\s/@:{}]+):([^\s/@{}]+)@/gi, (_match, scheme: string, user: string, password: string) => {
      tally?.secret(password);
      return `${scheme}${user}:${REDACTED}@`;
    })
    // `https://TOKEN@host`: a user part alone is how tokens ride in Git and webhook URLs.
    .replace(/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)([^\s/@:{}<>]+)@/gi, (_match, scheme: string, user: string) => {
      tally?.secret(user);
      return `${scheme}${REDACTED}@`;
    })
    .replace(/([?&])([^=&#?\s]+)=([^&#\s"'}]*)/g, (match, sep: string, name: string, raw: string) => {
      if ((keyKind(name) & SECRET_PARAMETER) === 0 || raw.startsWith('{{')) return match;
      tally?.secret(raw);
      return `${sep}${name}=${REDACTED}`;
    });
}

/**
 * `value`, found at `path` of a snapshot, as redaction leaves it there: what a note or an error on
 * its shape quotes, since the shape check reads the snapshot before it is redacted. The nearest key
 * decides, as in redactSecrets (an array's items take their list's key; a header's name is judged as
 * a header); the value is also cut by value from every output (resolve-source.ts), this is for the
 * secrets too short to be cut everywhere and for a quote cut short.
 */
export function redactedAt(path: readonly (string | number)[], value: JsonValue): JsonValue {
  let at = path.length - 1;
  while (at >= 0 && typeof path[at] === 'number') at--;
  const key = at >= 0 ? String(path[at]) : '';
  const parent = at >= 1 && typeof path[at - 1] === 'string' ? String(path[at - 1]) : '';
  const secretKey = (keyKind(parent) & HEADERS) !== 0 ? SECRET_HEADER : SECRET;
  return redactSecrets(value, key !== '' && (keyKind(key) & secretKey) !== 0, key);
}

/**
 * A copy of `value` with every secret-named key's value replaced. Scalars (and the scalars of an
 * array) under such a key are redacted; objects under it are walked like any other, their own
 * keys deciding, so `schema.properties.api_token: {type: "string"}` keeps its definition.
 * `inPlace`: `value` itself is redacted and its objects made prototype-free (a value nothing else holds).
 */
export function redactSecrets(value: JsonValue, secret = false, parentKey = '', tally?: RedactionTally, inPlace = false): JsonValue {
  if (Array.isArray(value)) {
    if (!inPlace) return value.map((item) => redactSecrets(item, secret, '', tally));
    for (let index = 0; index < value.length; index++) value[index] = redactSecrets(value[index]!, secret, '', tally, true);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    // In place: the object loses its prototype first, so a `__proto__` key is set as an own key, as in a keyed record.
    const result: Record<string, JsonValue> = inPlace ? Object.setPrototypeOf(value, null) : keyedRecord();
    const secretKey = (keyKind(parentKey) & HEADERS) !== 0 ? SECRET_HEADER : SECRET;
    // for-in, not Object.keys: no list of keys made per object (garbage a reading pass pays again in collections); in place, no prototype to inherit from.
    for (const key in value) {
      if (!inPlace && !Object.hasOwn(value, key)) continue;
      const redacted = redactSecrets(value[key]!, (keyKind(key) & secretKey) !== 0, key, tally, inPlace);
      // In place, a value left as it was (nearly all) is not stored again: a store each was 2 % of the 10x org's read.
      if (redacted !== value[key] || !inPlace) result[key] = redacted;
    }
    return result;
  }
  if (secret) return redactScalar(value, tally);
  return typeof value === 'string' ? redactInlineSecrets(value, tally) : value;
}

/** Top-level members of a snapshot kept as they are: the entities, the recording's own gaps and its format. */
export function isKeptAsRead(member: string): boolean {
  return member === 'entities' || member === 'incomplete' || member === 'format';
}

/** Keys of a snapshot already redacted piece by piece (`redactSecrets` of each item, entry or batch) into `tally`. */
export interface RedactedAlready {
  keys: ReadonlySet<string>;
  tally: RedactionTally;
}

/**
 * Every resource of a snapshot, at any depth. Entities are left as they are: they hold only
 * identifiers, titles, teams and relation values, keyed by the org's own relation identifiers.
 * `already`: keys the live fetch redacted as they arrived (issue 33: one pass over a 10x org at
 * the end of the fetch took seconds of its tail), or the snapshot file's reader as it read them
 * (issue 41: no walk of its own), counted in its tally, so the note is the same. Every value cut,
 * there or here, is added to `secrets`: no output may show it anywhere (found by value).
 */
export function redactSnapshot(snapshot: OrgSnapshot, notes?: string[], already?: RedactedAlready, secrets?: Set<string>): OrgSnapshot {
  const tally = already?.tally ?? new RedactionTally();
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    const kept = isKeptAsRead(key) || already?.keys.has(key) === true;
    result[key] = kept ? value : redactSecrets(value as JsonValue, false, '', tally);
    // Prototype safety in the same pass: the copy is made of keyed records, and the entities (kept
    // as read) lose their prototypes here, so the catalog does not walk a million of them again.
    if (!kept) markPrototypeFree(result[key]);
    else if (key === 'entities') dropTreePrototypes(value);
  }
  const note = redactionNote(tally, 'in the org');
  if (note !== undefined) notes?.push(note);
  for (const value of tally.secrets) secrets?.add(value);
  return result as unknown as OrgSnapshot;
}
