/**
 * The client is read-only by construction: every request passes this guard before it leaves the
 * process. GET is always allowed; POST only for the token exchange and the two search endpoints
 * (contracts.md §1 lists the endpoint set). Anything else is a bug, so it throws.
 */
export class ReadOnlyViolation extends Error {
  override name = 'ReadOnlyViolation';
}

const ALLOWED_POSTS: readonly RegExp[] = [
  /^\/v1\/auth\/access_token$/,
  /^\/v1\/entities\/search$/,
  /^\/v1\/blueprints\/[^/]+\/entities\/search$/,
];

/** `url` must already be resolved against the base URL, so `..` segments are normalized away. */
export function assertReadOnly(method: string, url: URL, baseUrl: URL): void {
  if (url.origin !== baseUrl.origin) {
    throw new ReadOnlyViolation(`refusing to send a request to ${url.origin}: only ${baseUrl.origin} is allowed`);
  }
  if (method === 'GET') return;
  if (method === 'POST' && ALLOWED_POSTS.some((pattern) => pattern.test(url.pathname))) return;
  throw new ReadOnlyViolation(`refusing to send ${method} ${url.pathname}: this tool only reads`);
}
