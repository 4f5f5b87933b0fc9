/**
 * The floor of a live fetch, measured (issue 41): the very requests the fetch sent, replayed against
 * the same sandbox by no client at all, `inFlight` at once, nothing waiting for anything else (no
 * list before its permissions), each answer read whole and dropped. Requests × latency / cap is
 * below what even this takes: every answer also costs the sandbox's work, the socket's and a timer
 * that fires late, which no client can skip. Used by bench:live and bench:fetch.
 */
import { createFetchTransport, type Transport, type TransportRequest } from '../src/api/transport.js';

/** `transport`, keeping every request it is given, in the order given, in `sent`. */
export function recording(transport: Transport, sent: TransportRequest[]): Transport {
  return (request) => {
    sent.push(request);
    return transport(request);
  };
}

/** Seconds to take `requests` again through a fresh transport, `inFlight` at a time. */
export async function replay(requests: readonly TransportRequest[], inFlight: number): Promise<number> {
  const transport = createFetchTransport();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(inFlight, requests.length) }, async () => {
      while (next < requests.length) await transport(requests[next++]!);
    }),
  );
  return (performance.now() - started) / 1_000;
}
