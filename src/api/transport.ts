import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { constants as zlibConstants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { HeaderReader } from './rate-limit.js';
import { assertReadOnly } from './read-only.js';

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
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The largest answer read, counted after decoding: a page of 1,000 entities is a few MB, and a
 * 10 MB gzip bomb that decodes to gigabytes is stopped here instead of in the heap.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

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
 * A body that fails to decompress (not the gzip, deflate or br it says it is): the server sends the
 * same bytes again, so the read ends at once instead of five retries over 32 s (issue 38).
 */
export class UndecodableAnswerError extends Error {
  override name = 'UndecodableAnswerError';
  constructor(coding: string, cause: Error) {
    super(`the answer's body could not be decompressed as ${coding} (${(cause as { code?: unknown }).code ?? cause.message})`, { cause });
  }
}

/** A request that got no HTTP answer (connection, DNS, TLS): `cause` is the system's error, whose code network-error.ts reads. */
class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(cause: Error) {
    super(`request failed: ${cause.message}`, { cause });
  }
}

/**
 * Ours: a connection (with its TLS handshake) not made within this long is a failure of its own,
 * retried as transient, instead of using up the whole request's deadline.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Ours: an idle kept-alive connection is closed after this long, before the usual server and
 * load-balancer idle timeouts (5 s and more), so a request is not sent down a connection the
 * server is closing.
 */
const IDLE_CONNECTION_MS = 4_000;
/** What the requests call themselves. */
const USER_AGENT = 'teams-migration-audit';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Decoders for `content-encoding`, outermost last as sent, each with its coding's name; undefined when one is unknown (the body is then read as it came). */
function decodersFor(encoding: string | undefined): Array<[string, Transform]> | undefined {
  const codings = (encoding ?? '').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  const decoders: Array<[string, Transform]> = [];
  // Lenient at the end, as browsers are: a stream ended without its trailer still decodes what came.
  const zlibFlush = { flush: zlibConstants.Z_SYNC_FLUSH, finishFlush: zlibConstants.Z_SYNC_FLUSH };
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push([coding, createGunzip(zlibFlush)]);
    else if (coding === 'deflate') decoders.push([coding, createInflate(zlibFlush)]);
    else if (coding === 'br') decoders.push([coding, createBrotliDecompress({ flush: zlibConstants.BROTLI_OPERATION_FLUSH, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH })]);
    else return undefined;
  }
  return decoders;
}

/** The answer's headers as the client reads them (names in any case; a repeated header joined as fetch joins it). */
function headerReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The client's transport over node:http(s) with kept-alive connections (issue 33: fetch cost the
 * client about twice the CPU per request, in web streams, an AbortSignal and Request/Response
 * objects each, which a loaded machine lacked to keep 32 requests in flight).
 * - One deadline per request, covering the connection, the headers and the whole body; on it the
 *   request and its socket are destroyed (a trickling socket left open kept the process alive
 *   after the report was written). The timer is held here until the end, never by a weak reference.
 * - The body is decoded here (gzip, deflate, br, as fetch asks for them) and its size bound counted
 *   as it decodes, so a small answer that decodes to gigabytes is stopped before the heap.
 * - A redirect is refused: it could carry the bearer token to another host.
 * Failures without an answer are NetworkErrors whose cause has the system's code. (The name is
 * from when it used fetch; callers and tests across the project know it by it.)
 */
export function createFetchTransport(timeoutMs: number = REQUEST_TIMEOUT_MS, maxBytes: number = MAX_ANSWER_BYTES): Transport {
  // Kept-alive connections are unreferenced while idle: they never keep the process alive.
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const url = new URL(request.url);
      const https = url.protocol === 'https:';
      if (!https && url.protocol !== 'http:') return reject(new NetworkError(new Error(`unsupported protocol ${url.protocol}`)));
      // The client checked the host; here, at the socket, the method and the path are checked again,
      // and clear text, so a change above cannot make the tool write or send a credential openly.
      try {
        assertReadOnly(request.method, url, url);
      } catch (error) {
        return reject(error);
      }
      let settled = false;
      let outgoing: ClientRequest | undefined;
      let connectTimer: NodeJS.Timeout | undefined;
      const streams: Readable[] = [];
      const finish = () => {
        settled = true;
        clearTimeout(deadline);
        clearTimeout(connectTimer);
      };
      /** Ends the request, its socket and every decoder; later errors of any of them are ignored. */
      const fail = (error: Error) => {
        if (settled) return;
        finish();
        outgoing?.destroy();
        for (const stream of streams) stream.destroy();
        reject(error);
      };
      const deadline = setTimeout(() => fail(deadlineError(timeoutMs)), timeoutMs);
      // The codings as fetch asks for them (brotli over TLS only), and a name: fetch sent one, and
      // a gateway may turn away a request that carries none.
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, 'accept-encoding': https ? 'br, gzip, deflate' : 'gzip, deflate', ...request.headers };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      const send = () => (https ? httpsRequest : httpRequest)(url, { method: request.method, headers, agent: agents[url.protocol as 'http:' | 'https:'] }, (response) => {
        const status = response.statusCode ?? 0;
        streams.push(response);
        response.on('error', (error) => fail(new NetworkError(error)));
        if (REDIRECTS.has(status) && response.headers.location !== undefined) return fail(new NetworkError(new Error('unexpected redirect')));
        let body: Readable = response;
        // An error status is answered by its status: a 503 or a 429 whose body (a proxy's page) does not
        // decompress is retried or waited for as any other, with no text, not given up as undecodable.
        const answeredByStatus = () => {
          if (settled) return;
          finish();
          for (const stream of streams) stream.destroy();
          resolve({ status, headers: headerReader(response.headers), text: '' });
        };
        for (const [coding, decoder] of decodersFor(response.headers['content-encoding']) ?? []) {
          streams.push(decoder);
          decoder.on('error', (error) => (status >= 200 && status < 300 ? fail(new UndecodableAnswerError(coding, error)) : answeredByStatus()));
          body = body.pipe(decoder);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        body.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes) return fail(new AnswerTooLargeError(maxBytes));
          chunks.push(chunk);
        });
        body.on('end', () => {
          if (settled) return;
          finish();
          const text = Buffer.concat(chunks).toString('utf8');
          const contentType = response.headers['content-type'] ?? null;
          const fault = answerFault(status, contentType, text);
          if (fault) reject(fault);
          else resolve({ status, headers: headerReader(response.headers), text });
        });
      });
      try {
        outgoing = send();
      } catch (error) {
        // A header Node refuses to send (a control character in the token): no request left.
        finish();
        return reject(error);
      }
      outgoing.on('error', (error) => fail(new NetworkError(error)));
      outgoing.on('socket', (socket) => {
        if (!socket.connecting) return; // a kept-alive connection
        connectTimer = setTimeout(() => fail(new NetworkError(Object.assign(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' }))), CONNECT_TIMEOUT_MS);
        socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      outgoing.end(request.body);
    });
}
