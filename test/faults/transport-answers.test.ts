import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchTransport } from '../../src/api/transport.js';
import { describeNetworkError } from '../../src/api/network-error.js';

/*
 * Issue 33: the transport reads answers over node:http itself (fetch did it before), so what fetch
 * did for free is checked here: each content coding it asks for is decoded, an unknown one is read
 * as it came, a repeated header reads as one, connections are kept alive between requests, and a
 * refused connection keeps the system's code for the one-line error.
 */
const DOCUMENT = JSON.stringify({ ok: true, blueprints: [{ identifier: 'svc', title: 'Service ✓' }] });
let server: Server;
let base = '';
const connections: number[] = [];
const askedEncodings: string[] = [];
const userAgents: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    askedEncodings.push(String(request.headers['accept-encoding']));
    userAgents.push(String(request.headers['user-agent']));
    const encoded: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', gzipSync(DOCUMENT)],
      '/deflate': ['deflate', deflateSync(DOCUMENT)],
      '/br': ['br', brotliCompressSync(DOCUMENT)],
      '/identity': ['identity', Buffer.from(DOCUMENT)],
      '/unknown': ['x-unknown', Buffer.from(DOCUMENT)],
    };
    const [encoding, body] = encoded[request.url ?? ''] ?? ['identity', Buffer.from(DOCUMENT)];
    response.setHeader('content-type', 'application/json');
    response.setHeader('content-encoding', encoding);
    response.setHeader('x-repeated', ['a', 'b']);
    response.end(body);
  });
  server.on('connection', () => connections.push(1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('what the transport reads of an answer', () => {
  it.each(['/gzip', '/deflate', '/br', '/identity', '/unknown'])('%s: the document as the server meant it', async (path) => {
    const answer = await createFetchTransport(5_000)({ method: 'GET', url: `${base}${path}`, headers: {} });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(DOCUMENT);
    expect(answer.headers.get('X-Repeated')).toBe('a, b');
    expect(answer.headers.get('absent')).toBeNull();
  });

  it('asks for the codings it decodes, brotli only over TLS as fetch does, and names itself', async () => {
    askedEncodings.length = 0;
    userAgents.length = 0;
    await createFetchTransport(5_000)({ method: 'GET', url: `${base}/gzip`, headers: {} });
    expect(userAgents).toEqual(['teams-migration-audit']);
    expect(new Set(askedEncodings)).toEqual(new Set(['gzip, deflate']));
  });

  it('sends one request after another down one kept-alive connection', async () => {
    const send = createFetchTransport(5_000);
    const before = connections.length;
    for (let i = 0; i < 3; i++) await send({ method: 'GET', url: `${base}/identity`, headers: {} });
    expect(connections.length - before).toBe(1);
  });

  it('a POST body arrives whole, with its length', async () => {
    const echo = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.end(JSON.stringify({ ok: true, length: request.headers['content-length'], body: Buffer.concat(chunks).toString('utf8') })));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const body = JSON.stringify({ query: { rules: [{ value: 'équipe' }] } });
      const answer = await createFetchTransport(5_000)({ method: 'POST', url: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1/blueprints/svc/entities/search`, headers: { 'content-type': 'application/json' }, body });
      expect(JSON.parse(answer.text)).toEqual({ ok: true, length: String(Buffer.byteLength(body)), body });
    } finally {
      echo.closeAllConnections();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('a refused connection is a failure that names it, as before', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await createFetchTransport(5_000)({ method: 'GET', url: `http://127.0.0.1:${port}/v1/organization`, headers: {} }).catch((e: unknown) => e);
    expect(describeNetworkError(error)).toEqual({ message: 'connection refused (nothing listens there)', permanent: true });
  });
});
