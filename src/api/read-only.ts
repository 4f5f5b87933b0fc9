/**
 * The client is read-only by construction: every request passes this guard before it leaves the
 * process, and goes only over TLS (or to this machine). GET is always allowed; POST only for the token exchange and a blueprint's entity search
 * (docs/formats.md, the org snapshot lists the endpoint set). Anything else is a bug, so it throws.
 */
export class ReadOnlyViolation extends Error {
  override name = 'ReadOnlyViolation';
}

const ALLOWED_POSTS: readonly RegExp[] = [
  /^\/v1\/auth\/access_token$/,
  /^\/v1\/blueprints\/[^/]+\/entities\/search$/,
];

/** `url` must already be resolved against the base URL, so `..` segments are normalized away. */
export function assertReadOnly(method: string, url: URL, baseUrl: URL): void {
  if (url.origin !== baseUrl.origin) {
    throw new ReadOnlyViolation(`refusing to send a request to ${url.origin}: only ${baseUrl.origin} is allowed`);
  }
  const clearText = clearTextRefusal(url);
  if (clearText !== undefined) throw new ReadOnlyViolation(`refusing to send ${method} ${url.pathname} to ${url.origin}: ${clearText}`);
  if (method === 'GET') return;
  if (method === 'POST' && ALLOWED_POSTS.some((pattern) => pattern.test(url.pathname))) return;
  throw new ReadOnlyViolation(`refusing to send ${method} ${url.pathname}: this tool only reads`);
}

/** Loopback hosts as `URL` writes them (IPv4 already normalized, IPv6 in brackets). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Why credentials may not go to `url`, or undefined when they may: over TLS anywhere, in clear
 * text only to this machine (a local sandbox or proxy), where nobody on the way can read them.
 */
export function clearTextRefusal(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return `it is not https: the token or client secret would travel in clear text; credentials are sent only over TLS (https://), or over http:// to a loopback address (127.0.0.0/8, ::1, localhost)`;
}
