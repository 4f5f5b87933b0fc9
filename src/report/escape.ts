import { createHash } from 'node:crypto';
import { jsonEscape } from '../terminal-text.js';

/**
 * JSON text made safe inside `<script type="application/json">`; a run of whole JSON values at a
 * time gives the same text. HTML ends a script element at the first `</script` whatever the JSON
 * means, so `<`, `>` and `&` become \u escapes (still the same JSON to JSON.parse). U+2028/2029
 * are escaped too, so the text stays valid if it is ever read as JS. A global regex, not
 * String.replace(string, …), which would replace only the first match.
 */
export function scriptSafeJson(json: string): string {
  // `##[` too (a workflow command of the runner's older form), so the page's own pass leaves the data alone;
  // matched whole, since a lookbehind for its bracket made the scan of a big page several times slower.
  return json.replace(/[<>&\u2028\u2029]|##\[/g, (match) => (match === '##[' ? `##${jsonEscape('[')}` : jsonEscape(match)));
}

/** A CSP source expression that allows exactly this inline element content and nothing else. */
export function cspHash(content: string): string {
  return `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}
