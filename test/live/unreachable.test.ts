import { access } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../helpers/fake-clock.js';
import { readText, run, tempDir, withSandbox, type Run } from './harness.js';

/** A port on 127.0.0.1 with nothing listening: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The error lines of a run (progress lines aside): the run must stop with exactly one. */
const errorLines = (result: Run) => result.stderr.split('\n').filter((line) => line.startsWith('teams-migration-audit:'));

const exists = (path: string) => access(path).then(() => true, () => false);

describe('an --api-url that is not the API is a configuration error (exit 2, one line, no waiting)', () => {
  it('nothing listening: PORT_TOKEN and client credentials stop at once with "connection refused"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const clock = createFakeClock();
    const dir = await tempDir();
    const token = await run(['analyze', '--api-url', url, '--out', join(dir, 'a')], { PORT_TOKEN: 't' }, clock);
    expect(token.code).toBe(2);
    expect(errorLines(token)).toEqual([
      `teams-migration-audit: cannot read the catalog API at ${url}: GET /v1/organization: connection refused (nothing listens there) (check --api-url)`,
    ]);
    const client = await run(['snapshot', '--out', join(dir, 'org.json'), '--api-url', url], { PORT_CLIENT_ID: 'i', PORT_CLIENT_SECRET: 's' }, clock, { isTTY: true });
    expect(client.code).toBe(2);
    expect(errorLines(client)).toEqual([
      `teams-migration-audit: cannot read the catalog API at ${url}: POST /v1/auth/access_token: connection refused (nothing listens there) (check --api-url)`,
    ]);
    // The error starts its own line even after a progress bar.
    expect(client.stderr).toMatch(/(^|\n)teams-migration-audit: /);
    // No retries, no rate-limit waits, and nothing written: not an empty report for "(organization not readable)".
    expect(clock.sleeps).toEqual([]);
    expect(await exists(join(dir, 'a', 'report.json'))).toBe(false);
    expect(await exists(join(dir, 'org.json'))).toBe(false);
  });

  it('a server answering 404 for everything: the first reads once each, then exit 2 naming it not the API', async () => {
    await withSandbox({ answerAll: { status: 404 } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      expect(errorLines(result)).toEqual([
        `teams-migration-audit: cannot read the catalog API at ${sandbox.url}: GET /v1/organization: HTTP 404: not found: not the catalog API (check --api-url)`,
      ]);
      // The lists start with the organization (issue 25: a retry of it holds nothing else), so they
      // meet the 404 too: each once, never retried, and nothing that needs their answers is sent.
      const sent = sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
      expect(sent).toContain('GET /v1/organization 404');
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent.filter((line) => !/^GET \/v1\/[a-z]+(\?[^/]*)? 404$/.test(line))).toEqual([]);

      const before = sandbox.requests.length;
      const client = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--quiet'], { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret }, clock);
      expect(client.code).toBe(2);
      expect(client.stderr).toBe(
        `teams-migration-audit: cannot read the catalog API at ${sandbox.url}: POST /v1/auth/access_token: HTTP 404: not found: not the catalog API (check --api-url)\n`,
      );
      // One token exchange: the reads queued behind it meet its failure without sending another.
      expect(sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/auth/access_token']);
      expect(clock.sleeps).toEqual([]);
      expect(await exists(join(out, 'report.json'))).toBe(false);
    });
  });

  it('a web page instead of the API: exit 2, "not JSON: not the catalog API"', async () => {
    await withSandbox({ answerAll: { status: 200, contentType: 'text/html', body: '<!doctype html><title>Welcome</title>' } }, async (sandbox, clock) => {
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `teams-migration-audit: cannot read the catalog API at ${sandbox.url}: GET /v1/organization: answered text/html where JSON was expected: not the catalog API (check --api-url)\n`,
      );
    });
  });

  it('an organization failing after every retry stops the run; a 403 on it only leaves a gap', async () => {
    await withSandbox({ faults: [{ method: 'GET', path: '/v1/organization', status: 503 }] }, async (sandbox, clock) => {
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`teams-migration-audit: cannot read the catalog API at ${sandbox.url}: GET /v1/organization: HTTP 503 after 5 retries (check --api-url)\n`);
      expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
      // The lists start with the organization and their reads follow them (issue 25: a retry of
      // the organization holds nothing else), each once; the run stops at the organization's last
      // attempt; nothing is read twice.
      const others = sandbox.requests.filter((r) => r.path !== '/v1/organization').map((r) => r.path);
      expect(others.length).toBeGreaterThan(0);
      expect(new Set(others).size).toBe(others.length);
      expect(sandbox.requests.filter((r) => r.path === '/v1/organization')).toHaveLength(6);
    });
    await withSandbox({ faults: [{ method: 'GET', path: '/v1/organization', status: 403 }] }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--quiet', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as { incomplete: Array<{ resource: string }>; findings: unknown[] };
      expect(report.incomplete.map((entry) => entry.resource)).toEqual(['organization']);
      expect(report.findings.length).toBeGreaterThan(0);
    });
  });
});
