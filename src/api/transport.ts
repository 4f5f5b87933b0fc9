import type { HeaderReader } from './rate-limit.js';

/** The one seam between the client and the network; tests plug in a scripted fake. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  headers: HeaderReader;
  text: string;
}

/** Throws for timeouts and connection failures; any HTTP status is a response. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Ours: long enough for a large page of entities, short enough that a hung socket is retried. */
export const REQUEST_TIMEOUT_MS = 60_000;

export function createFetchTransport(timeoutMs: number = REQUEST_TIMEOUT_MS): Transport {
  return async (request) => {
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error', // a redirect could carry the bearer token to another host
    };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetch(request.url, init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
}
