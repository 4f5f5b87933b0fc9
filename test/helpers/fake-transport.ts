import type { Transport, TransportRequest, TransportResponse } from '../../src/api/transport.js';

export interface ScriptedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One scripted step: a response, or a thrown network error. */
export type Step = ScriptedResponse | { throws: Error };

export interface FakeTransport {
  transport: Transport;
  log: TransportRequest[];
}

/** Answers requests in order from `steps`; once they run out, `fallback` answers. */
export function scriptedTransport(steps: Step[], fallback: (request: TransportRequest) => ScriptedResponse = okFor): FakeTransport {
  const log: TransportRequest[] = [];
  const queue = [...steps];
  return {
    log,
    transport: async (request) => {
      log.push(request);
      const step = queue.shift() ?? fallback(request);
      if ('throws' in step) throw step.throws;
      return toResponse(step);
    },
  };
}

export function toResponse(step: ScriptedResponse): TransportResponse {
  const headers = new Headers(step.headers ?? {});
  return { status: step.status, headers, text: JSON.stringify(step.body ?? { ok: step.status < 300 }) };
}

export function okFor(request: TransportRequest): ScriptedResponse {
  if (request.url.endsWith('/v1/auth/access_token')) return { status: 200, body: { ok: true, accessToken: 'tok', expiresIn: 3600 } };
  return { status: 200, body: { ok: true, blueprints: [] } };
}

export function connectionReset(): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
}
