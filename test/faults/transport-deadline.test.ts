import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchTransport } from '../../src/api/transport.js';
import { describeNetworkError } from '../../src/api/network-error.js';

/** A server that sends its headers at once and then the body as `body` decides (never, or a byte at a time). */
async function serve(body: (write: (chunk: string) => void) => NodeJS.Timeout | undefined): Promise<{ url: string; server: Server }> {
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"ok":');
    const timer = body((chunk) => response.write(chunk));
    if (timer) timers.push(timer);
  });
  server.on('close', () => timers.forEach(clearInterval));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/blueprints`, server };
}

/*
 * The fault seen in the field: once the headers are in, nothing but a weak reference holds the
 * timeout signal, so a garbage collection during the body read removes the deadline. Collect often.
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const collecting = () => setInterval(() => collect(), 25);

let open: Server | undefined;
afterEach(async () => {
  open?.closeAllConnections();
  await new Promise<void>((resolve) => (open ? open.close(() => resolve()) : resolve()));
  open = undefined;
});

describe('one deadline per request covers the headers and the whole body', () => {
  it.each([
    ['stalls after the headers', () => undefined],
    ['trickles a byte at a time', (write: (chunk: string) => void) => setInterval(() => write(' '), 20)],
  ])('a body that %s is timed out', async (_name, body) => {
    const { url, server } = await serve(body);
    open = server;
    const gc = collecting();
    // Both are timers of this one event loop, and Node fires them in the order they expire, however
    // busy the machine: a deadline that still holds fires first; a lost one lets the later timer win.
    const error = await Promise.race([
      createFetchTransport(300)({ method: 'GET', url, headers: {} }).catch((e: unknown) => e),
      new Promise((resolve) => setTimeout(() => resolve(new Error('still waiting after 3 s: the deadline was lost')), 3_000)),
    ]).finally(() => clearInterval(gc));
    expect(describeNetworkError(error).message).toBe('the request timed out');
  });
});
