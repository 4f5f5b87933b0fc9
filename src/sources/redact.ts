import type { JsonValue } from '../model/json.js';
import type { OrgSnapshot } from '../model/snapshot.js';

/**
 * Secrets never reach a snapshot or a report: snapshots are meant to be committed and attached
 * to tickets, and findings quote records verbatim. A key whose name looks like a secret (webhook
 * `security.secret`, `Authorization` headers of WEBHOOK invocations, `clientSecret`, `token`,
 * `password`, `apiKey`, `privateKey`, …) keeps its place but its value becomes this marker, so
 * the shape stays and rules still read everything else.
 */
export const REDACTED = '<redacted>';

/** Compared on the key lowercased with `_`, `-`, `.` and spaces removed: `X-Api-Key` → `xapikey`. */
const SECRET_NAME = /secret|token|passw(?:or)?d|passphrase|apikey|privatekey|accesskey|authorization|cookie|credential/;

export function isSecretName(key: string): boolean {
  return SECRET_NAME.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** `{{ … }}` templates stay: `{{ .secrets.TOKEN }}` names a secret without holding it, and rules read templates. */
const TEMPLATE = /(\{\{[\s\S]*?\}\})/;

function redactScalar(value: JsonValue): JsonValue {
  if (typeof value === 'number') return REDACTED;
  if (typeof value !== 'string' || value === '') return value;
  if (!TEMPLATE.test(value)) return REDACTED;
  return value
    .split(TEMPLATE)
    .map((part, index) => (index % 2 === 1 || part.trim() === '' ? part : REDACTED))
    .join('');
}

/**
 * Secrets carried inside an innocent-looking string: the password of `https://user:pw@host`, and
 * the value of a secret-named query parameter (`?token=…`, `&api_key=…`). A Slack or webhook URL
 * under a plain `url` key is the usual case; the rest of the URL, templates included, stays.
 */
function redactInlineSecrets(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)([^\s/@:{}]+):([^\s/@{}]+)@/gi, `$1$2:${REDACTED}@`)
    .replace(/([?&])([^=&#\s]+)=(\{\{[\s\S]*?\}\}|[^&#\s"'}]*)/g, (match, sep: string, name: string, raw: string) =>
      isSecretName(name) && !raw.startsWith('{{') ? `${sep}${name}=${REDACTED}` : match,
    );
}

/**
 * A copy of `value` with every secret-named key's value replaced. Scalars (and the scalars of an
 * array) under such a key are redacted; objects under it are walked like any other, their own
 * keys deciding, so `schema.properties.api_token: {type: "string"}` keeps its definition.
 */
export function redactSecrets(value: JsonValue, secret = false): JsonValue {
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secret));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) result[key] = redactSecrets(item as JsonValue, isSecretName(key));
    return result;
  }
  if (secret) return redactScalar(value);
  return typeof value === 'string' ? redactInlineSecrets(value) : value;
}

/**
 * Every resource of a snapshot, at any depth. Entities are left as they are: they hold only
 * identifiers, titles, teams and relation values, keyed by the org's own relation identifiers.
 */
export function redactSnapshot(snapshot: OrgSnapshot): OrgSnapshot {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    result[key] = key === 'entities' || key === 'incomplete' || key === 'format' ? value : redactSecrets(value as JsonValue);
  }
  return result as unknown as OrgSnapshot;
}
