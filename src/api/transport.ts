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

/**
 * The largest answer read, counted after decoding: a page of 1,000 entities is a few MB, and a
 * 10 MB gzip bomb that decodes to gigabytes is stopped here instead of in the heap.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The error a missed deadline rejects with; network-error.ts reads its name as "the request timed out". */
function deadlineError(timeoutMs: number): Error {
  return new DOMException(`no complete answer within ${timeoutMs} ms`, 'TimeoutError');
}

/** An answer over the size bound; network-error.ts says so in words. */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  constructor(limit: number) {
    super(`the answer is larger than ${Math.round(limit / (1024 * 1024))} MB (after decompression)`);
  }
}

/** A 2xx JSON answer whose text stops before its last bracket: the connection was cut, a retry may read it whole. */
export class CutAnswerError extends Error {
  override name = 'CutAnswerError';
  constructor() {
    super('the answer was cut before its end');
  }
}

/**
 * A 2xx answer that is no JSON where the API answers JSON: a web page (a sign-in portal, a proxy's
 * page) or another content type. A retry gets the same page, so the read ends at once (issue 32).
 */
export class NotJsonAnswerError extends Error {
  override name = 'NotJsonAnswerError';
  constructor(contentType: string | null, startsWith?: string) {
    const type = contentType ?? 'no content type';
    super(startsWith === undefined ? `answered ${type} where JSON was expected` : `answered ${type} whose body is not JSON (it starts with ${JSON.stringify(startsWith)})`);
  }
}

/**
 * What is wrong with a 2xx answer as JSON, if anything: another content type, a body that does not
 * start as JSON does (a web page sent as JSON), or a JSON document that does not end with `}` or
 * `]` (the server closed a length-less body early: cut, and a retry may read it whole).
 */
function answerFault(status: number, contentType: string | null, text: string): Error | undefined {
  if (status < 200 || status >= 300) return undefined;
  if (contentType !== null && !/json/i.test(contentType)) return new NotJsonAnswerError(contentType);
  const body = text.trim();
  if (body === '') return undefined;
  if (!body.startsWith('{') && !body.startsWith('[')) return new NotJsonAnswerError(contentType, body.charAt(0));
  return contentType !== null && !body.endsWith('}') && !body.endsWith(']') ? new CutAnswerError() : undefined;
}

/**
 * One deadline per request, covering the headers and the whole body. Not AbortSignal.timeout: once
 * the headers are in, fetch holds its signal only weakly, so a garbage collection during a stalled
 * or trickling body removed the deadline and the run hung. This timer is held here until the end.
 * The body is read chunk by chunk, so the size bound is counted as it decodes, and on the deadline
 * both the request and the body stream are ended: a trickling socket left to the pool kept the
 * process alive after the report was written.
 */
export function createFetchTransport(timeoutMs: number = REQUEST_TIMEOUT_MS, maxBytes: number = MAX_ANSWER_BYTES): Transport {
  return async (request) => {
    const controller = new AbortController();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const stop = (error: Error) => {
      controller.abort(error);
      reader?.cancel(error).catch(() => undefined);
    };
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const error = deadlineError(timeoutMs);
        stop(error);
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
    const read = async (): Promise<TransportResponse> => {
      const response = await fetch(request.url, init);
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (response.body) {
        reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            const error = new AnswerTooLargeError(maxBytes);
            stop(error);
            throw error;
          }
          chunks.push(value);
        }
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const fault = answerFault(response.status, response.headers.get('content-type'), text);
      if (fault) throw fault;
      return { status: response.status, headers: response.headers, text };
    };
    try {
      return await Promise.race([read(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
