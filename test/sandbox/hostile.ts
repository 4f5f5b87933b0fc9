import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Faults of a hostile or broken gateway, for the fault-injection suite (issue 16): bodies that
 * stall or trickle after the headers, search pages whose `next` loops, error messages that echo
 * the request (bearer token and body included), and rate-limit resets far beyond any window.
 */
export interface HostileOptions {
  /** Requests to this path (with query) answer 200 headers and then never finish the body. */
  stallBodyOn?: string;
  /** Requests to this path answer 200 headers and then one byte every `trickleMs` (100 by default), never finishing. */
  trickleBodyOn?: string;
  trickleMs?: number;
  /** Entity search pages never end: `next` alternates between two cursors. */
  loopSearchPages?: boolean;
  /** Every error answer's message quotes the request's headers and body, as some gateways do. */
  echoRequestInErrors?: boolean;
  /** Requests to this path answer 429 with `x-ratelimit-reset: seconds`. */
  hugeReset?: { path: string; seconds: number };
  /** Requests to this path answer 200 with a web page (a sign-in portal in front of one route). */
  htmlOn?: string;
}

/** Timers of trickling answers, stopped when the sandbox closes. */
export interface HostileState {
  timers: Set<NodeJS.Timeout>;
}

/** Take over the answer when a body fault applies; true when it did. */
export function answerWithBodyFault(options: HostileOptions, state: HostileState, path: string, response: ServerResponse): boolean {
  if (options.htmlOn === path) {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!DOCTYPE html><html><body>Sign in</body></html>');
    return true;
  }
  const stall = options.stallBodyOn === path;
  const trickle = options.trickleBodyOn === path;
  if (!stall && !trickle) return false;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"ok": true, ');
  if (trickle) {
    const timer = setInterval(() => response.write(' '), options.trickleMs ?? 100);
    timer.unref();
    state.timers.add(timer);
    response.on('close', () => {
      clearInterval(timer);
      state.timers.delete(timer);
    });
  }
  return true;
}

/** What a gateway that echoes the request would put in its error message. */
export function echoOf(request: IncomingMessage, body: unknown): string {
  const authorization = request.headers.authorization ?? '(none)';
  return `request was ${request.method} ${request.url} authorization: ${authorization} body: ${JSON.stringify(body ?? null)}`;
}

/** The cursor a looping search answers with: page 0 leads to page 1 and page 1 back to page 0. */
export function loopingNext(offset: number, limit: number, encode: (offset: number) => string): string {
  return encode(offset === 0 ? limit : 0);
}
