/** §8.1: every response carries these three headers; `reset` is read as integer seconds. */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  resetSeconds?: number;
}

export interface HeaderReader {
  get(name: string): string | null;
}

function readInteger(headers: HeaderReader, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number.parseInt(raw, 10);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function readRateLimitHeaders(headers: HeaderReader): RateLimitHeaders {
  const result: RateLimitHeaders = {};
  const limit = readInteger(headers, 'x-ratelimit-limit');
  const remaining = readInteger(headers, 'x-ratelimit-remaining');
  const resetSeconds = readInteger(headers, 'x-ratelimit-reset');
  if (limit !== undefined) result.limit = limit;
  if (remaining !== undefined) result.remaining = remaining;
  if (resetSeconds !== undefined) result.resetSeconds = resetSeconds;
  return result;
}
