import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetchTransport, type Transport } from '../../src/api/transport.js';
import { readText, run, tempDir, withSandbox } from '../live/harness.js';

/**
 * The fault-injection suite (issue 16): a gateway that stalls, trickles, loops pages, echoes the
 * request or asks for a wait of days. Each case: the exit code, a bound on what it does, and a report that
 * names what is missing. Clock and sleeper are fake; only the stalled bodies cost real time, and no
 * assertion depends on how much.
 */
interface Incomplete {
  resource: string;
  reason: string;
}

const readReport = async (out: string) => JSON.parse(await readText(join(out, 'report.json'))) as { incomplete?: Incomplete[] };
const analyze = (url: string, out: string) => ['analyze', '--api-url', url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'];

describe('fault injection through the sandbox', () => {
  it.each([
    ['stalls after the headers', { stallBodyOn: '/v1/pages/services/permissions' }],
    ['trickles a byte at a time', { trickleBodyOn: '/v1/pages/services/permissions', trickleMs: 20 }],
  ])('a body that %s is timed out, retried and left as a gap (exit 3)', async (_name, hostile) => {
    await withSandbox({ hostile }, async (sandbox, clock) => {
      const out = await tempDir();
      // The short deadline only where the body never completes: every other answer has all the time
      // a busy machine needs, so the only gap is the one the fault makes.
      const stalled = createFetchTransport(150);
      const patient = createFetchTransport(60_000);
      const transport: Transport = (request) => (request.url.endsWith('/v1/pages/services/permissions') ? stalled(request) : patient(request));
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock, { transport });
      expect(result.code).toBe(3);
      const incomplete = (await readReport(out)).incomplete ?? [];
      expect(incomplete).toEqual([{ resource: 'permissions of page "services"', reason: 'GET /v1/pages/services/permissions: the request timed out after 5 retries' }]);
    });
  });

  it('entity search pages whose next loops: recorded as incomplete with the reason, exit 3, never silent', async () => {
    await withSandbox({ hostile: { loopSearchPages: true } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const incomplete = (await readReport(out)).incomplete ?? [];
      const looped = incomplete.filter((entry) => /next.*repeats a cursor/.test(entry.reason));
      expect(looped.map((entry) => entry.resource)).toContain('entities of blueprint "migrated"');
      // Bounded: a loop is seen on its first repeated cursor, not after thousands of pages.
      expect(sandbox.requests.length).toBeLessThan(200);
    });
  });

  it('x-ratelimit-reset: 9000 (seconds: under the epoch threshold) is not waited for: no wait over 300 s, the resource becomes incomplete with the reason', async () => {
    await withSandbox({ hostile: { hugeReset: { path: '/v1/pages/services/permissions', seconds: 9_000 } } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      expect(Math.max(0, ...clock.sleeps)).toBeLessThanOrEqual(300_000);
      const incomplete = (await readReport(out)).incomplete ?? [];
      expect(incomplete).toContainEqual({
        resource: 'permissions of page "services"',
        reason: 'GET /v1/pages/services/permissions: rate limited (HTTP 429) and asked to wait 9000 s, over the 300 s this tool waits',
      });
      // The other resources were read as usual.
      expect(incomplete).toHaveLength(1);
    });
  });

  it('an error message echoing the request never copies the bearer token into the report or stderr', async () => {
    await withSandbox(
      { hostile: { echoRequestInErrors: true }, faults: [{ path: '/v1/pages/services/permissions', status: 403 }] },
      async (sandbox, clock) => {
        const out = await tempDir();
        const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock);
        expect(result.code).toBe(3);
        const report = await readText(join(out, 'report.json'));
        const entry = (JSON.parse(report) as { incomplete: Incomplete[] }).incomplete.find((e) => e.resource === 'permissions of page "services"');
        expect(entry?.reason).toContain('request was GET /v1/pages/services/permissions authorization: Bearer <redacted>');
        expect(report).not.toContain(sandbox.token);
        expect(result.stderr).not.toContain(sandbox.token);
      },
    );
  });

  it('an echoing gateway never copies the client secret or the exchanged token, whatever fails', async () => {
    await withSandbox(
      { hostile: { echoRequestInErrors: true }, faults: [{ path: '/v1/pages/services/permissions', status: 403 }] },
      async (sandbox, clock) => {
        const out = await tempDir();
        const env = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret };
        const result = await run(analyze(sandbox.url, out), env, clock);
        expect(result.code).toBe(3);
        const report = await readText(join(out, 'report.json'));
        expect(report).toContain('request was GET /v1/pages/services/permissions');
        for (const secret of [sandbox.clientSecret, ...sandbox.issuedTokens()]) {
          expect(report).not.toContain(secret);
          expect(result.stderr).not.toContain(secret);
        }
      },
    );
    await withSandbox({ hostile: { echoRequestInErrors: true }, faults: [{ path: '/v1/auth/access_token', status: 400 }] }, async (sandbox, clock) => {
      const env = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret };
      const result = await run(analyze(sandbox.url, await tempDir()), env, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('request was POST /v1/auth/access_token');
      expect(result.stderr).not.toContain(sandbox.clientSecret);
    });
  });
});

describe('reads skipped because they cannot change a finding are said in the report', () => {
  it('a live run notes the automation whose permissions were not read, and reads no entity page permissions', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(0);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as { notes?: string[] };
      expect(report.notes).toContain(
        'permissions of 1 automation not read: only self-service actions carry execute/approve permissions; an automation runs on events, so no team entry of its own can change',
      );
      expect(sandbox.requests.map((r) => r.path)).not.toContain('/v1/actions/notify/permissions');
      expect(sandbox.requests.map((r) => r.path)).toContain('/v1/actions/scaffold/permissions');
    });
  });
});

describe('a server that switches to another org halfway (issue 23)', () => {
  it('is noticed: the organization is an incomplete item naming both ids, exit 3; a server that does not switch has none', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const real = createFetchTransport(5_000);
      let organizationReads = 0;
      // The second answer of /v1/organization comes from another org, as a gateway that re-routed would give.
      const switching: typeof real = async (request) => {
        const response = await real(request);
        if (!request.url.endsWith('/v1/organization') || ++organizationReads < 2) return response;
        return { ...response, text: response.text.replace(/"id":\s*"[^"]*"/, '"id": "org_other"') };
      };
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock, { transport: switching });
      expect(result.code).toBe(3);
      const entry = ((await readReport(out)).incomplete ?? []).find((item) => item.resource === 'organization');
      expect(entry?.reason).toMatch(/^the service answered for organization "[^"]+" at the start of the read and "org_other" at its end: the data may mix two orgs; run again$/);

      const steady = await tempDir();
      const again = await run(analyze(sandbox.url, steady), { PORT_TOKEN: sandbox.token }, clock, { transport: real });
      expect(again.code).toBe(0);
      expect(((await readReport(steady)).incomplete ?? []).filter((item) => item.resource === 'organization')).toEqual([]);
    });
  });
});

describe('a gateway echoing the first and last 8 characters of the token (issue 32)', () => {
  it('never puts either into the report or stderr', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.Qk3vX9pLm2aTzR7wYc5NdE8fHs1uJg4Ko6Bi0Ve-xZq';
    await withSandbox({ token, faults: [{ path: '/v1/pages/services/permissions', status: 403 }] }, async (sandbox, clock) => {
      const real = createFetchTransport(5_000);
      const echoing: typeof real = async (request) => {
        const response = await real(request);
        if (!request.url.endsWith('/v1/pages/services/permissions')) return response;
        return { ...response, text: JSON.stringify({ ok: false, error: 'forbidden', message: `token ${token.slice(0, 8)}…${token.slice(-8)} is not allowed here` }) };
      };
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: token }, clock, { transport: echoing });
      expect(result.code).toBe(3);
      const report = await readText(join(out, 'report.json'));
      expect(report).toContain('is not allowed here');
      for (const part of [token.slice(0, 8), token.slice(-8)]) {
        expect(report).not.toContain(part);
        expect(result.stderr).not.toContain(part);
      }
    });
  });
});

describe('a gateway echoing part of the token (issue 23)', () => {
  it('never puts 12 or more of its characters in a row into the report or stderr', async () => {
    await withSandbox({ faults: [{ path: '/v1/pages/services/permissions', status: 403 }] }, async (sandbox, clock) => {
      const real = createFetchTransport(5_000);
      const part = sandbox.token.slice(3, 23);
      const echoing: typeof real = async (request) => {
        const response = await real(request);
        if (!request.url.endsWith('/v1/pages/services/permissions')) return response;
        return { ...response, text: JSON.stringify({ ok: false, error: 'forbidden', message: `credential starting ${part}… is not allowed here` }) };
      };
      const out = await tempDir();
      const result = await run(analyze(sandbox.url, out), { PORT_TOKEN: sandbox.token }, clock, { transport: echoing });
      expect(result.code).toBe(3);
      const report = await readText(join(out, 'report.json'));
      expect(report).toContain('is not allowed here');
      expect(report).not.toContain(part.slice(0, 12));
      expect(result.stderr).not.toContain(part.slice(0, 12));
    });
  });
});
