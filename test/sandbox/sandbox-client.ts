import { setTimeout as delay } from 'node:timers/promises';
import { createApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { createFetchTransport } from '../../src/api/transport.js';
import type { Sandbox } from './server.js';

/**
 * The API client as a live run builds it, pointed at a sandbox with its token: the real transport,
 * the real clock and sleep unless a test injects its own, and the given cap on requests in flight.
 */
export function sandboxClient(sandbox: Pick<Sandbox, 'url' | 'token'>, options: Partial<ApiClientOptions> & { concurrency: number }) {
  return createApiClient({
    baseUrl: new URL(sandbox.url),
    credentials: { kind: 'token', token: sandbox.token },
    transport: createFetchTransport(),
    now: Date.now,
    sleep: (ms) => delay(ms),
    ...options,
  });
}
