import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { resolveConnection } from '../../src/api/connection.js';
import { ReadOnlyViolation } from '../../src/api/read-only.js';
import { createFetchTransport, type Transport, type TransportRequest } from '../../src/api/transport.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture, run, tempDir } from '../live/harness.js';
import { startSandbox, type Sandbox } from '../sandbox/server.js';

/*
 * Issue 38 items 3 and 12: credentials travel only over TLS (or to this machine), and the read-only
 * promise is tested through the real client and transport against a sandbox on 127.0.0.1, whose
 * request log must show that nothing refused ever arrived.
 */

/** A transport that records what it was asked to send and sends nothing. */
function recordingTransport(): { transport: Transport; sent: TransportRequest[] } {
  const sent: TransportRequest[] = [];
  return { sent, transport: async (request) => (sent.push(request), Promise.reject(new Error('must not be called'))) };
}

describe('credentials only over TLS, except to a loopback address', () => {
  it.each<[string[], Record<string, string>, string]>([
    [['--api-url', 'http://api.example.com'], {}, '--api-url http://api.example.com'],
    [['--api-url', 'http://10.1.2.3:8080/v1'], {}, '--api-url http://10.1.2.3:8080'],
    [[], { PORT_API_URL: 'http://proxy.internal' }, 'PORT_API_URL http://proxy.internal'],
    [['--api-url', 'http://user:pw@128.0.0.1'], {}, '--api-url http://128.0.0.1'],
  ])('%j %j is refused in one line (exit 2) before any request', async (flags, env, named) => {
    for (const credentials of [{ PORT_TOKEN: 'tok-123456789abc' }, { PORT_CLIENT_ID: 'id', PORT_CLIENT_SECRET: 'sec-123456789abc' }] as Record<string, string>[]) {
      const { transport, sent } = recordingTransport();
      const result = await run(['analyze', ...flags, '--out', await tempDir(), '--quiet'], { ...env, ...credentials }, createFakeClock(), { transport });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `teams-migration-audit: ${named}: it is not https: the token or client secret would travel in clear text; credentials are sent only over TLS (https://), or over http:// to a loopback address (127.0.0.0/8, ::1, localhost)\n`,
      );
      expect(sent).toEqual([]);
    }
  });
  it('https anywhere, and http to 127.0.0.0/8, ::1 or localhost, are accepted', async () => {
    for (const url of ['https://api.example.com', 'http://127.0.0.1:4000', 'http://127.9.8.7', 'http://[::1]:8080', 'http://localhost:3000', 'http://LOCALHOST']) {
      expect((await resolveConnection({ apiUrl: url }, { PORT_TOKEN: 't' }))?.baseUrl.origin, url).toBe(new URL(url).origin);
    }
  });
  it('a user and password in the address are refused in one line that never shows them (they would be dropped, and the error went to the CI log)', async () => {
    for (const url of ['https://ci-user:pw-5ecret-value@api.example.com/x', 'https://ci-user:pw-5ecret-value@api.example.com', 'http://ci-user:pw-5ecret-value@127.0.0.1:4000']) {
      const { transport, sent } = recordingTransport();
      const result = await run(['analyze', '--api-url', url, '--out', await tempDir(), '--quiet'], { PORT_TOKEN: 'tok-123456789abc' }, createFakeClock(), { transport });
      expect(result.code, url).toBe(2);
      expect(result.stderr, url).toMatch(/^teams-migration-audit: --api-url https?:\/\/\*\*\*@(api\.example\.com|127\.0\.0\.1:4000)\S*: a user name or password in the address is never sent; give the credentials as PORT_TOKEN, or PORT_CLIENT_ID and PORT_CLIENT_SECRET\n$/);
      expect(result.stderr).not.toMatch(/ci-user|5ecret/);
      expect(sent).toEqual([]);
    }
    const unparsable = await run(['analyze', '--api-url', 'https://ci-user:pw-5ecret-value@api.example.com:99999', '--out', await tempDir(), '--quiet'], { PORT_TOKEN: 'tok-123456789abc' }, createFakeClock(), { transport: recordingTransport().transport });
    expect(unparsable.stderr).toBe('teams-migration-audit: --api-url: "https://***@api.example.com:99999" is not a URL\n');
  });
  it('the client itself refuses a clear-text base URL: nothing reaches the transport', async () => {
    const { transport, sent } = recordingTransport();
    const clock = createFakeClock();
    for (const credentials of [{ kind: 'token', token: 'tok' } as const, { kind: 'client', clientId: 'id', clientSecret: 'sec' } as const]) {
      const client = createApiClient({ baseUrl: new URL('http://api.example.com'), credentials, transport, now: clock.now, sleep: clock.sleep, concurrency: 4 });
      await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(/not https: the token or client secret would travel in clear text/);
    }
    expect(sent).toEqual([]);
  });
});

describe('the real client and transport against a sandbox on 127.0.0.1', () => {
  let sandbox: Sandbox;
  let foreign: Server;
  let foreignOrigin = '';
  const foreignRequests: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ snapshot: await loadFixture() });
    foreign = createServer((request, response) => {
      foreignRequests.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true,"blueprints":[]}');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sandbox.close();
    foreign.closeAllConnections();
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
  });

  const realClient = () => {
    const clock = createFakeClock();
    return createApiClient({ baseUrl: new URL(sandbox.url), credentials: { kind: 'token', token: sandbox.token }, transport: createFetchTransport(5_000), now: clock.now, sleep: clock.sleep, concurrency: 4 });
  };

  it('the sandbox answers a read through the same client (the refusals below are not a dead line)', async () => {
    const before = sandbox.requests.length;
    await expect(realClient().get('/v1/blueprints', 'blueprints')).resolves.toEqual(expect.any(Array));
    expect(sandbox.requests.slice(before)).toEqual([{ method: 'GET', path: '/v1/blueprints', status: 200 }]);
  });

  it('a read aimed at any other host or port is refused before a byte leaves: neither server sees it', async () => {
    const port = new URL(sandbox.url).port;
    const before = sandbox.requests.length;
    const client = realClient();
    for (const path of [`${foreignOrigin}/v1/blueprints`, `//127.0.0.1:${new URL(foreignOrigin).port}/v1/blueprints`, `/\\127.0.0.1:${new URL(foreignOrigin).port}/v1/blueprints`, `http://localhost:${port}/v1/blueprints`, `https://127.0.0.1:${port}/v1/blueprints`]) {
      await expect(client.get(path, 'blueprints'), path).rejects.toThrow(ReadOnlyViolation);
    }
    expect(foreignRequests).toEqual([]);
    expect(sandbox.requests.slice(before)).toEqual([]);
  });

  it('every method but a read, and a POST outside the token exchange and the searches, is refused at the transport: the sandbox logs none', async () => {
    const before = sandbox.requests.length;
    const send = createFetchTransport(5_000);
    const cases: Array<[string, string]> = [
      ['PUT', '/v1/blueprints/service'],
      ['PATCH', '/v1/blueprints/service/entities/e1'],
      ['DELETE', '/v1/blueprints/service/entities/e1'],
      ['HEAD', '/v1/blueprints'],
      ['OPTIONS', '/v1/blueprints'],
      ['POST', '/v1/blueprints'],
      ['POST', '/v1/blueprints/service/entities'],
      ['POST', '/v1/blueprints/service/entities/bulk'],
      ['POST', '/v1/blueprints/system/users-and-teams-as-blueprints'],
    ];
    for (const [method, path] of cases) {
      const request = { method, url: `${sandbox.url}${path}`, headers: { authorization: `Bearer ${sandbox.token}` }, body: '{}' } as unknown as TransportRequest;
      await expect(send(request), `${method} ${path}`).rejects.toThrow(ReadOnlyViolation);
    }
    // A clear-text request to a host that is not this machine is refused there too.
    await expect(send({ method: 'GET', url: 'http://api.example.com/v1/blueprints', headers: {} })).rejects.toThrow(/not https/);
    expect(sandbox.requests.slice(before)).toEqual([]);
    // The same transport sends what a read is.
    await expect(send({ method: 'GET', url: `${sandbox.url}/v1/blueprints`, headers: { authorization: `Bearer ${sandbox.token}` } })).resolves.toMatchObject({ status: 200 });
    expect(sandbox.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/blueprints']);
  });
});
