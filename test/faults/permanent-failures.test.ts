import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, createFetchTransport, NotJsonAnswerError } from '../../src/api/transport.js';
import { clientWith } from '../helpers/fake-client.js';
import type { Step } from '../helpers/fake-transport.js';
import { readText, run, tempDir, withSandbox } from '../live/harness.js';

/*
 * Issue 32 item 9: failures a retry cannot change are not retried. An answer over the 64 MB cap
 * (82 s of retries), a redirect (32 s) and a web page where JSON is expected (reported as "cut
 * before its end") each end their read at once, in words that say what happened: one incomplete
 * entry, or one line when it is the first read of the organization.
 */
const OK: Step = { status: 200, body: { ok: true, organization: { id: 'org_1', name: 'Acme' } } };
const redirect = () => Object.assign(new TypeError('fetch failed'), { cause: new Error('unexpected redirect') });

describe('the client gives up at once on an answer a retry would get again', () => {
  it.each([
    ['an answer over the size cap', () => new AnswerTooLargeError(64 * 1024 * 1024), 'the answer is larger than 64 MB (after decompression)'],
    ['a redirect', redirect, 'answered with a redirect, which this tool does not follow'],
    ['a web page where JSON is expected', () => new NotJsonAnswerError('text/html; charset=utf-8'), 'answered text/html; charset=utf-8 where JSON was expected'],
  ])('%s: one attempt, no wait, the reason in words', async (_name, fault, words) => {
    // The first read reached the API; the second meets the fault.
    const { client, clock, fake } = clientWith([OK, { throws: fault() }, OK]);
    await client.get('/v1/organization', 'organization');
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(`GET /v1/blueprints: ${words}`);
    expect(fake.log).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('what the transport makes of an answer', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      const answers: Record<string, [number, Record<string, string>, string]> = {
        '/html-as-json': [200, { 'content-type': 'application/json' }, '<!DOCTYPE html><html><body>Sign in</body></html>'],
        '/html': [200, { 'content-type': 'text/html; charset=utf-8' }, '<html>portal</html>'],
        '/cut': [200, { 'content-type': 'application/json' }, '{"ok": true, "blueprints": ['],
        '/moved': [302, { location: 'https://elsewhere.example/v1/blueprints' }, ''],
        '/error-page': [502, { 'content-type': 'text/html' }, '<html>bad gateway</html>'],
      };
      const [status, headers, body] = answers[request.url ?? ''] ?? [404, {}, ''];
      response.writeHead(status, headers);
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const send = (path: string) => createFetchTransport(2_000)({ method: 'GET', url: `${base}${path}`, headers: {} });

  it('a web page sent as JSON, or with its own content type, is no JSON answer (not a cut one)', async () => {
    await expect(send('/html-as-json')).rejects.toThrow(new NotJsonAnswerError('application/json', '<'));
    await expect(send('/html')).rejects.toThrow(new NotJsonAnswerError('text/html; charset=utf-8'));
  });
  it('a JSON answer cut before its end is still one (retried); an error page is an HTTP status (retried as such)', async () => {
    await expect(send('/cut')).rejects.toThrow('the answer was cut before its end');
    expect((await send('/error-page')).status).toBe(502);
  });
  it('a redirect is not followed', async () => {
    await expect(send('/moved')).rejects.toThrow();
  });
});

describe('through the CLI', () => {
  it('the organization read answered by a web page: one line, exit 2, no retry', async () => {
    await withSandbox({ answerAll: { status: 200, contentType: 'text/html', body: '<html>Sign in</html>' } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^teams-migration-audit: cannot read the catalog API at [^\n]*GET \/v1\/organization: answered text\/html where JSON was expected[^\n]*\n$/);
      expect(sandbox.requests.filter((r) => r.path === '/v1/organization')).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    });
  });

  it('a later read answered by a web page: one incomplete entry saying so, read once, exit 3', async () => {
    await withSandbox({ hostile: { htmlOn: '/v1/pages/services/permissions' } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as { incomplete: { resource: string; reason: string }[] };
      expect(report.incomplete).toContainEqual({ resource: 'permissions of page "services"', reason: 'GET /v1/pages/services/permissions: answered text/html where JSON was expected' });
      expect(sandbox.requests.filter((r) => r.path === '/v1/pages/services/permissions')).toHaveLength(1);
    });
  });
});
