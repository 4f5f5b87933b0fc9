import type { FindingDraft } from '../model/finding.js';
import { isSecretName, REDACTED, redactSecrets } from '../sources/redact.js';
import type { LocatedJson } from './located-json.js';

/**
 * Secret text written in a file's resources: the parts of each secret-named key's value that
 * the org's redaction replaces (src/sources/redact.ts), `{{ … }}` templates kept out. File
 * findings quote the file's own text, so these parts are cut from them as the org cuts its snapshot.
 */
export function secretFragments(value: LocatedJson, secret = false, found: Set<string> = new Set()): Set<string> {
  if (value.kind === 'object') for (const [key, child] of value.fields) secretFragments(child, isSecretName(key), found);
  else if (value.kind === 'array') for (const item of value.items) secretFragments(item, secret, found);
  else if (secret && (typeof value.value === 'string' || typeof value.value === 'number')) {
    const text = String(value.value);
    for (const part of cutParts(text, String(redactSecrets(value.value, true)))) found.add(part);
  }
  return found;
}

/**
 * Secret values written in any file's text as `key: value`, `key = "value"` or `"key": "value"`
 * under a secret-named key (YAML, HCL, JSON, Python keywords): workflow inputs, GitOps files and
 * scripts that are not parsed into resources still never reach a report with their secrets.
 */
export function textSecretFragments(text: string): Set<string> {
  const found = new Set<string>();
  // A key starts where no name character precedes it: tried from inside a long name too, the scan
  // would read to the name's end from every character of it (quadratic on a 1 MB line).
  const entry = /(["']?)(?<![A-Za-z0-9_-])([A-Za-z_][A-Za-z0-9_-]*)\1[ \t]*[:=][ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s,{}[\]#]+))/g;
  for (const match of text.matchAll(entry)) {
    if (!isSecretName(match[2]!)) continue;
    const value = match[3] ?? match[4] ?? match[5] ?? '';
    for (const part of cutParts(value, String(redactSecrets(value, true)))) found.add(part);
  }
  return found;
}

/** The parts of `text` that `redacted` replaced by the marker: everything between the parts it kept. */
function cutParts(text: string, redacted: string): string[] {
  const kept = redacted.split(REDACTED);
  const parts: string[] = [];
  let at = 0;
  kept.forEach((piece, index) => {
    const start = index === 0 ? 0 : text.indexOf(piece, at);
    if (start < 0) return;
    if (index > 0 && start > at) parts.push(text.slice(at, start));
    at = start + piece.length;
  });
  if (kept.length > 1 && at < text.length) parts.push(text.slice(at));
  // A piece of a few characters is no secret worth the damage: cutting every `p` from the text
  // would garble each finding that quotes the file.
  return parts.flatMap((part) => [part, part.trim()]).filter((part) => part.trim().length >= MIN_SECRET_LENGTH);
}

const TEXT_FIELDS = ['evidence', 'rewrite', 'reason', 'suggestion', 'note'] as const;

/** Shorter leftovers of a redacted value are not cut from finding text (see cutParts). */
const MIN_SECRET_LENGTH = 4;

/**
 * A finding with no secret in any string it carries: the file's secret fragments (as written and
 * JSON-escaped) become the marker, and URL passwords and secret query parameters go as in the org.
 */
export function redactFinding(finding: FindingDraft, fragments: ReadonlySet<string>): FindingDraft {
  const forms = [...fragments].flatMap((part) => [part, JSON.stringify(part).slice(1, -1)]).sort((a, b) => b.length - a.length);
  const clean = (text: string): string => String(redactSecrets(forms.reduce((t, form) => t.split(form).join(REDACTED), text)));
  const result: FindingDraft = { ...finding, resource: { ...finding.resource } };
  for (const key of TEXT_FIELDS) {
    const text = finding[key];
    if (typeof text === 'string') result[key] = clean(text);
  }
  if (result.resource.title !== undefined) result.resource.title = clean(result.resource.title);
  return result;
}
