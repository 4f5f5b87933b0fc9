/**
 * The service's documented rate limits and the service as it answers today (docs/live-service.md, Rate limits): every response
 * carries `x-ratelimit-limit`, `-remaining` and `-reset`; a 429 may carry `Retry-After`.
 */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds from now until the window resets, whichever form the service sent. */
  resetSeconds?: number;
  /** How `x-ratelimit-reset` was written: seconds to wait, or the UTC epoch second of the reset. */
  resetForm?: 'seconds' | 'epoch';
  /** `Retry-After` in seconds from now (delta-seconds or an HTTP date). */
  retryAfterSeconds?: number;
}

export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The service documents `x-ratelimit-reset` both as "seconds before the reset" and as "UTC epoch
 * seconds"; its own integrations (Ocean) read a value above 10,000 as an epoch. No window lasts
 * 10,000 s (2.8 hours), and no epoch is that small.
 */
export const EPOCH_RESET_THRESHOLD = 10_000;

/**
 * The rate limits are organised in categories; the published table had one budget for the
 * entity API and one for everything else. A 429 on one says nothing of the other.
 */
export type RequestClass = 'entities' | 'other';

export function requestClassOf(pathname: string): RequestClass {
  return /^\/v1\/(entities(\/|$)|blueprints\/[^/]+\/(entities|bulk)(\/|$|-))/.test(pathname) ? 'entities' : 'other';
}

function readInteger(headers: HeaderReader, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number.parseInt(raw, 10);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Ours: a `Retry-After` further out than a day is no advice a run can follow (no rate-limit window
 * lasts that long); read as absent, the documented fallback applies instead of giving up the read.
 */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** The three forms of an HTTP date (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime. */
const HTTP_DATE = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * `Retry-After`: delta-seconds, or an HTTP date (RFC 9110 §10.2.3). Anything else (a negative
 * number, which Date.parse reads as a year such as 99999, a free-form date) or a wait over a day is
 * no advice: undefined, as when the header is absent.
 */
function readRetryAfter(headers: HeaderReader, nowMs: number): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  let seconds: number;
  if (/^\d+$/.test(raw)) seconds = Number.parseInt(raw, 10);
  else if (HTTP_DATE.some((form) => form.test(raw))) seconds = Math.max(0, Math.ceil((Date.parse(raw) - nowMs) / 1_000));
  else return undefined;
  return Number.isFinite(seconds) && seconds <= MAX_RETRY_AFTER_SECONDS ? seconds : undefined;
}

/**
 * The service's own time when it answered (`Date`, RFC 9110 §6.6.1), else ours. An epoch reset and
 * an HTTP-date `Retry-After` are times on the service's clock, which may be minutes off ours: read
 * against ours, a clock 10 minutes ahead turned a 60 s reset into 660 s, over the cap. `Date` is
 * whole seconds, rounded down: the wait it gives is never shorter than the service meant.
 */
function serviceNow(headers: HeaderReader, nowMs: number): number {
  const date = headers.get('date')?.trim();
  // Only an HTTP date within a day of ours is a clock: `-99999` (read by Date.parse as a year) put
  // every epoch reset in the past, and the 429s were sent again at once.
  const at = date !== undefined && HTTP_DATE.some((form) => form.test(date)) ? Date.parse(date) : Number.NaN;
  return Number.isFinite(at) && Math.abs(at - nowMs) <= MAX_RETRY_AFTER_SECONDS * 1_000 ? at : nowMs;
}

export function readRateLimitHeaders(headers: HeaderReader, localNowMs: number): RateLimitHeaders {
  const result: RateLimitHeaders = {};
  const nowMs = serviceNow(headers, localNowMs);
  const limit = readInteger(headers, 'x-ratelimit-limit');
  const remaining = readInteger(headers, 'x-ratelimit-remaining');
  const reset = readInteger(headers, 'x-ratelimit-reset');
  const retryAfter = readRetryAfter(headers, nowMs);
  if (limit !== undefined) result.limit = limit;
  if (remaining !== undefined) result.remaining = remaining;
  if (reset !== undefined) {
    const epoch = reset > EPOCH_RESET_THRESHOLD;
    result.resetForm = epoch ? 'epoch' : 'seconds';
    // An epoch already past means the window has reset: nothing to wait for.
    result.resetSeconds = epoch ? Math.max(0, Math.ceil((reset * 1_000 - nowMs) / 1_000)) : reset;
  }
  if (retryAfter !== undefined) result.retryAfterSeconds = retryAfter;
  return result;
}

/**
 * How long a 429 asks to wait, in seconds: the later of `x-ratelimit-reset` (the service's docs prefer it)
 * and `Retry-After` (the service's CLI honours it), so neither is cut short; undefined when the
 * answer names neither (the caller's documented fallback applies).
 */
export function rateLimitedForSeconds(headers: RateLimitHeaders): number | undefined {
  if (headers.resetSeconds === undefined) return headers.retryAfterSeconds;
  if (headers.retryAfterSeconds === undefined) return headers.resetSeconds;
  return Math.max(headers.resetSeconds, headers.retryAfterSeconds);
}
