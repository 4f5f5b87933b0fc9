import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../helpers/fake-clock.js';
import { DEMO_ORG, FIXTURE, loadFixture, readText, run, tempDir, withSandbox, withoutFetchNotes } from './harness.js';

/** docs/formats.md, the org snapshot: the only method/path pairs the fetcher may use. */
const READ_ONLY_SET: readonly RegExp[] = [
  /^POST \/v1\/auth\/access_token$/,
  /^GET \/v1\/organization$/,
  /^GET \/v1\/blueprints$/,
  /^GET \/v1\/blueprints\/[^/?]+\/permissions$/,
  /^GET \/v1\/blueprints\/[^/?]+\/entities$/,
  /^GET \/v1\/blueprints\/[^/?]+\/entities-count$/,
  /^POST \/v1\/blueprints\/[^/?]+\/entities\/search$/,
  /^POST \/v1\/entities\/search$/,
  /^GET \/v1\/actions\?version=v2$/,
  /^GET \/v1\/actions\/[^/?]+\/permissions$/,
  /^GET \/v1\/pages\?compact=false$/,
  /^GET \/v1\/pages\/[^/?]+\/permissions$/,
  /^GET \/v1\/integration$/,
  /^GET \/v1\/webhooks$/,
  /^GET \/v1\/teams$/,
  // docs/formats.md, the org snapshot
  /^GET \/v1\/scorecards$/,
  /^GET \/v1\/users\?fields=email&fields=teams\.name&fields=roles\.name$/,
];

async function analyzeSnapshotFile(path: string) {
  const out = await tempDir();
  const result = await run(['analyze', '--snapshot', path, '--out', out, '--format', 'json,html', '--fail-on', 'none'], {}, createFakeClock());
  return { ...result, report: await readText(join(out, 'report.json')) };
}

describe('live analysis through the sandbox', () => {
  it.each([
    ['the demo org', DEMO_ORG],
    ['the live fixture', FIXTURE],
  ])('%s: same report.json as analyzing the snapshot file the sandbox serves, using only read-only endpoints', async (_name, path) => {
    const offline = await analyzeSnapshotFile(path);
    expect(JSON.parse(offline.report).findings.length).toBeGreaterThan(5);
    await withSandbox({ snapshot: await loadFixture(path) }, async (sandbox, clock) => {
      const out = await tempDir();
      const live = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(live.stderr).toContain((await loadFixture(path)).organization.name);
      expect(live.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(await readText(join(out, 'index.html'))).toContain(`live org at ${sandbox.url}`);

      const outside = sandbox.requests.map((r) => `${r.method} ${r.path}`).filter((line) => !READ_ONLY_SET.some((p) => p.test(line)));
      expect(outside).toEqual([]);
      expect(sandbox.requests.every((r) => r.status === 200)).toBe(true);
    });
  });

  it('searches entities only where the answer can change a finding, with a small limit', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      const searched = sandbox.requests.filter((r) => r.path.endsWith('/entities/search')).map((r) => decodeURIComponent(r.path.split('/')[3] ?? ''));
      // $team samples of service, system, legacy_app and the slash one (no teamInheritance, no
      // ownership): one page of each blueprint's own search (the search across blueprints has no
      // paging to keep its answer small); migrated (Direct): entities still to move out of its
      // _team relation; _team: the team directory. Not microservice / beta_app (teamInheritance):
      // no rule reads their entities.
      expect(searched.sort()).toEqual(['_team', 'legacy_app', 'migrated', 'service', 'system', 'weird id/with slash']);
    });
  });

  it('snapshot --out writes org-snapshot/1 in stable key order that analyzes to the same report', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const dir = await tempDir();
      const file = join(dir, 'org.json');
      const env = { PORT_TOKEN: sandbox.token };
      const recorded = await run(['snapshot', '--out', file, '--api-url', sandbox.url], env, clock);
      expect(recorded.code).toBe(0);
      expect(recorded.stderr).toContain(`wrote ${file} from live org at ${sandbox.url}`);

      const text = await readText(file);
      const snapshot = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(snapshot)).toEqual(Object.keys(snapshot).sort());
      const blueprintPermissions = Object.keys(snapshot.blueprintPermissions as object);
      expect(blueprintPermissions).toEqual([...blueprintPermissions].sort());
      expect(text).toBe(`${JSON.stringify(snapshot, null, 2)}\n`);
      // Recording twice gives the same bytes.
      const again = join(dir, 'again.json');
      await run(['snapshot', '--out', again, '--api-url', sandbox.url, '--concurrency', '7', '--quiet'], env, clock);
      expect(await readText(again)).toBe(text);
      const fixture = await loadFixture();
      // The automation's permissions are not read (permission-plan.ts): it has none a team can hold.
      const { notify: _automation, ...actionPermissions } = fixture.actionPermissions ?? {};
      expect(snapshot.actionPermissions).toEqual(actionPermissions);
      for (const key of ['organization', 'blueprints', 'blueprintPermissions', 'actions', 'pages', 'pagePermissions', 'integrations', 'webhooks', 'teams']) {
        expect(snapshot[key], key).toEqual(fixture[key]);
      }
      const entities = snapshot.entities as Record<string, Array<Record<string, unknown>>>;
      expect(entities._team).toEqual(fixture.entities?._team);
      expect(entities.service?.map((e) => e.identifier)).toEqual(['svc-0', 'svc-1', 'svc-2', 'svc-3', 'svc-4']);
      expect(entities.service?.[0]).toEqual({ identifier: 'svc-0', title: 'Service 0', team: ['Platform Team'] });
      expect(entities.legacy_app).toEqual([]);
      expect(entities.migrated).toEqual([
        { identifier: 'm-2', title: 'Still to move', relations: { owning_team: ['payments'] } },
        { identifier: 'm-3', relations: { owning_team: ['platform_team'] } },
      ]);
      expect(entities.system).toEqual([]);
      expect(Object.keys(entities)).not.toContain('microservice');

      // Same report from the recorded file as from the live org.
      const liveOut = await tempDir();
      await run(['analyze', '--api-url', sandbox.url, '--out', liveOut, '--format', 'json', '--fail-on', 'none'], env, clock);
      const fromFile = await analyzeSnapshotFile(file);
      expect(withoutFetchNotes(fromFile.report)).toEqual(withoutFetchNotes(await readText(join(liveOut, 'report.json'))));
    });
  });

  it('the demo org recorded with snapshot --out analyzes to the same report as the live run', async () => {
    await withSandbox({ snapshot: await loadFixture(DEMO_ORG) }, async (sandbox, clock) => {
      const dir = await tempDir();
      const env = { PORT_TOKEN: sandbox.token };
      expect((await run(['snapshot', '--out', join(dir, 'demo.json'), '--api-url', sandbox.url, '--quiet'], env, clock)).code).toBe(0);
      await run(['analyze', '--api-url', sandbox.url, '--out', join(dir, 'live'), '--format', 'json', '--fail-on', 'none', '--quiet'], env, clock);
      expect(withoutFetchNotes((await analyzeSnapshotFile(join(dir, 'demo.json'))).report)).toEqual(withoutFetchNotes(await readText(join(dir, 'live', 'report.json'))));
    });
  });

  it('exchanges PORT_CLIENT_ID / PORT_CLIENT_SECRET and recovers from one 401 by exchanging again', async () => {
    await withSandbox({ faults: [{ method: 'GET', path: '/v1/teams', status: 401, times: 1 }] }, async (sandbox, clock) => {
      const env = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret };
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], env, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests.filter((r) => r.path === '/v1/auth/access_token')).toHaveLength(2);
      expect(sandbox.requests.filter((r) => r.path === '/v1/teams').map((r) => r.status)).toEqual([401, 200]);
    });
  });

  it('refreshes an exchanged token before it expires', async () => {
    // Tokens live 90 s and every request here waits 10 s (a spent budget), so the run outlives several tokens.
    await withSandbox({ tokenLifetimeSeconds: 90, rateLimit: { limit: 1, windowSeconds: 10 } }, async (sandbox, clock) => {
      const env = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret };
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--concurrency', '1', '--quiet', '--fail-on', 'none'], env, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests.filter((r) => r.status === 401)).toEqual([]);
      expect(sandbox.requests.filter((r) => r.path === '/v1/auth/access_token').length).toBeGreaterThan(3);
    });
  });

  it('reads the reference script config.json with --config', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const config = join(await tempDir(), 'config.json');
      await writeFile(config, JSON.stringify({ REGION: 'us', CLIENT_ID: sandbox.clientId, CLIENT_SECRET: sandbox.clientSecret }));
      const result = await run(['analyze', '--config', config, '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], {}, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests[0]?.path).toBe('/v1/auth/access_token');
    });
  });
});

describe('rate limits and failures through the sandbox (fake clock: no real waits)', () => {
  it('a window limit with reset headers: waits out each window, spends no 429 at concurrency 1, same report', async () => {
    const offline = await analyzeSnapshotFile(FIXTURE);
    await withSandbox({ rateLimit: { limit: 5, windowSeconds: 10 } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--concurrency', '1', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(sandbox.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(clock.sleeps.length).toBeGreaterThan(3);
      // Spread over each window (window-pacing.ts), never a wait past the reset: the run ends in
      // the window that holds its last request.
      expect(clock.sleeps.every((ms) => ms > 0 && ms <= 10_000)).toBe(true);
      const elapsed = clock.sleeps.reduce((sum, ms) => sum + ms, 0);
      expect(elapsed).toBeLessThan(Math.ceil(sandbox.requests.length / 5) * 10_000);
    });
  });

  it('a tight window (10 per 5 s) at concurrency 4 with the headers: no 429 at all, the budget spread over each window', async () => {
    const offline = await analyzeSnapshotFile(FIXTURE);
    await withSandbox({ rateLimit: { limit: 10, windowSeconds: 5 } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--concurrency', '4', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(sandbox.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(result.stderr).not.toContain('HTTP 429');
      // The first half of each window's budget goes at once, the rest is spread to the reset: no
      // wait is longer than a window, and the run takes about requests / rate, not more.
      expect(clock.sleeps.length).toBeGreaterThan(0);
      expect(clock.sleeps.every((ms) => ms > 0 && ms <= 5_000)).toBe(true);
      const windows = Math.ceil(sandbox.requests.length / 10);
      const elapsed = clock.sleeps.reduce((sum, ms) => sum + ms, 0);
      expect(elapsed).toBeLessThanOrEqual(windows * 5_000 + 1_000); // a second for the whole-second reset header
    });
  });

  it('x-ratelimit-remaining without x-ratelimit-reset at concurrency 4: no 429, the budget spread over 60 s windows', async () => {
    const offline = await analyzeSnapshotFile(FIXTURE);
    await withSandbox({ rateLimit: { limit: 12, windowSeconds: 60, sendReset: false } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(sandbox.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(clock.sleeps.length).toBeGreaterThan(0);
      expect(clock.sleeps.every((ms) => ms > 0 && ms <= 60_000)).toBe(true);
      // The fake clock adds the pacing sleeps of concurrent requests one after another, so their sum
      // overstates the elapsed time; it still stays within twice the windows the requests need.
      expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(Math.ceil(sandbox.requests.length / 12) * 2 * 60_000);
    });
  });

  it('a 429 storm at concurrency 4 without the budget headers (no remaining, no reset): 60 s waits, then a complete report', async () => {
    const offline = await analyzeSnapshotFile(FIXTURE);
    await withSandbox({ rateLimit: { limit: 6, windowSeconds: 60, sendReset: false, sendRemaining: false } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(clock.sleeps.length).toBeGreaterThan(0);
      expect(new Set(clock.sleeps)).toEqual(new Set([60_000]));
      // Four requests in flight when the budget runs out: the ones over it get a 429 and wait too.
      expect(sandbox.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
      expect(result.stderr).toMatch(/rate limit: waiting 60 s/);
    });
  });

  it('a 5xx every 3rd request: backoff from 1 s, then a complete report', async () => {
    const offline = await analyzeSnapshotFile(FIXTURE);
    await withSandbox({ failEvery: 3 }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--concurrency', '1', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(offline.code);
      expect(withoutFetchNotes(await readText(join(out, 'report.json')))).toEqual(withoutFetchNotes(offline.report));
      expect(sandbox.requests.filter((r) => r.status === 503).length).toBe(clock.sleeps.length);
      // A retry gives its slot to the next request while it waits, so it may land on the next
      // third request and back off again: 1 s, 2 s, 4 s …, never more than the 5 retries allow.
      expect(clock.sleeps.every((ms) => [1_000, 2_000, 4_000, 8_000, 16_000].includes(ms))).toBe(true);
      expect(clock.sleeps).toContain(1_000);
    });
  });

  it('a resource failing after 5 retries, and a 403, land in incomplete; the run exits 3', async () => {
    const faults = [
      { method: 'GET', path: '/v1/webhooks', status: 503 },
      { method: 'GET', path: '/v1/pages/secret_page/permissions', status: 403 },
    ];
    await withSandbox({ faults }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--concurrency', '1', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
      expect(sandbox.requests.filter((r) => r.path === '/v1/webhooks')).toHaveLength(6);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as { incomplete: unknown[] };
      expect(report.incomplete).toEqual([
        { resource: 'permissions of page "secret_page"', reason: 'GET /v1/pages/secret_page/permissions: HTTP 403: injected HTTP 403' },
        { resource: 'webhooks', reason: 'GET /v1/webhooks: HTTP 503 after 5 retries' },
      ]);
      expect(result.stderr).toContain('INCOMPLETE');

      // The recorded snapshot keeps the gap, so an offline re-run is incomplete too.
      const file = join(out, 'org.json');
      expect((await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], { PORT_TOKEN: sandbox.token }, clock)).code).toBe(3);
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(snapshot.webhooks).toBeUndefined();
      expect(Object.keys(snapshot.pagePermissions as object)).toEqual(['services']);
      expect((await analyzeSnapshotFile(file)).code).toBe(3);
    });
  });
});
