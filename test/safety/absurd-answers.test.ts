import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { MAX_RETRY_AFTER_SECONDS, readRateLimitHeaders } from '../../src/api/rate-limit.js';
import { createFetchTransport } from '../../src/api/transport.js';
import { clientWith } from '../helpers/fake-client.js';
import { createFakeClock } from '../helpers/fake-clock.js';

/*
 * Issue 38 item 10: a Retry-After that is negative or absurd is no advice (the documented 60 s
 * fallback applies, the read is not given up), and a body that does not decompress is not retried.
 */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const OK = { status: 200, body: { ok: true, blueprints: [] } };
const retryAfter = (value: string) => readRateLimitHeaders(new Headers({ 'retry-after': value }), NOW).retryAfterSeconds;

describe('Retry-After that is no advice', () => {
  it('a negative number, a free-form date, a date or a delay over a day read as absent', () => {
    expect(retryAfter('-99999')).toBeUndefined(); // Date.parse reads it as the year 99999
    expect(retryAfter('-5')).toBeUndefined();
    expect(retryAfter('2026-01-15T12:00:30Z')).toBeUndefined(); // not an HTTP date
    expect(retryAfter(String(MAX_RETRY_AFTER_SECONDS + 1))).toBeUndefined();
    expect(retryAfter(new Date(NOW + (MAX_RETRY_AFTER_SECONDS + 60) * 1_000).toUTCString())).toBeUndefined();
  });
  it('delta-seconds up to a day and the three HTTP date forms are read', () => {
    expect(retryAfter(String(MAX_RETRY_AFTER_SECONDS))).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(retryAfter('0')).toBe(0);
    expect(retryAfter(new Date(NOW + 30_000).toUTCString())).toBe(30);
    expect(retryAfter('Thursday, 15-Jan-26 12:00:30 GMT')).toBe(30);
    expect(retryAfter('Thu Jan 15 12:00:30 2026')).toBe(30);
  });
  it('a 429 with Retry-After: -99999 waits the 60 s fallback and reads on, never given up', async () => {
    const { client, clock } = clientWith([{ status: 429, headers: { 'retry-after': '-99999' } }, OK]);
    await expect(client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(clock.sleeps).toEqual([60_000]);
  });
});

describe('a Date header that is no advice', () => {
  it('a Date that is no HTTP date, or a day off ours, is not the service\'s clock: an epoch reset is read against ours', () => {
    const reset = String(NOW / 1_000 + 30);
    for (const date of ['-99999', '99999', new Date(NOW - 2 * 86_400_000).toUTCString(), 'yesterday']) {
      expect(readRateLimitHeaders(new Headers({ date, 'x-ratelimit-reset': reset }), NOW).resetSeconds, date).toBe(30);
    }
    // A service clock a few minutes off ours is still read as the service's.
    expect(readRateLimitHeaders(new Headers({ date: new Date(NOW - 600_000).toUTCString(), 'x-ratelimit-reset': reset }), NOW).resetSeconds).toBe(630);
  });
});

describe('a body that fails to decompress', () => {
  let server: Server;
  let base = '';
  let served = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      served++;
      // A proxy's busy page that names a coding its bytes are not in, then the answer itself.
      if (request.url === '/v1/busy-once' && served === 1) {
        response.writeHead(503, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return void response.end('<html>busy, and not gzip</html>');
      }
      if (request.url === '/v1/busy-once') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify({ ok: true, blueprints: [] }));
      }
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      // A gzip header followed by bytes that are no deflate stream.
      response.end(Buffer.concat([gzipSync('{}').subarray(0, 10), Buffer.from('this is not deflate data at all, not at all')]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends its read after one request, with no wait, saying so in words', async () => {
    const clock = createFakeClock();
    const client = createApiClient({ baseUrl: new URL(base), credentials: { kind: 'token', token: 'secret-token' }, transport: createFetchTransport(5_000), now: clock.now, sleep: clock.sleep, concurrency: 4 });
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(/^GET \/v1\/blueprints: the answer's body could not be decompressed as gzip \(Z_DATA_ERROR\)$/);
    expect(served).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });
  it('an error status whose body does not decompress is still that status: a 503 is retried as any 503 (it was given up at once)', async () => {
    served = 0;
    const clock = createFakeClock();
    const client = createApiClient({ baseUrl: new URL(base), credentials: { kind: 'token', token: 'secret-token' }, transport: createFetchTransport(5_000), now: clock.now, sleep: clock.sleep, concurrency: 4 });
    await expect(client.get('/v1/busy-once', 'blueprints')).resolves.toEqual([]);
    expect(served).toBe(2);
  });
});
