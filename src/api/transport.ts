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

/** The error a missed deadline rejects with; network-error.ts reads its name as "the request timed out". */
function deadlineError(timeoutMs: number): Error {
  return new DOMException(`no complete answer within ${timeoutMs} ms`, 'TimeoutError');
}

/**
 * One deadline per request, covering the headers and the whole body. Not AbortSignal.timeout: once
 * the headers are in, fetch holds its signal only weakly, so a garbage collection during a stalled
 * or trickling body removed the deadline and the run hung. This timer is held here until the end.
 */
export function createFetchTransport(timeoutMs: number = REQUEST_TIMEOUT_MS): Transport {
  return async (request) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const error = deadlineError(timeoutMs);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      redirect: 'error', // a redirect could carry the bearer token to another host
    };
    if (request.body !== undefined) init.body = request.body;
    try {
      return await Promise.race([
        (async () => {
          const response = await fetch(request.url, init);
          return { status: response.status, headers: response.headers, text: await response.text() };
        })(),
        expired,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
}
