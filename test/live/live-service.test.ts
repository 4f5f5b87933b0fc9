import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATED_FEATURE_FLAG } from '../../src/catalog/migration-state.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { createFetchTransport, type Transport } from '../../src/api/transport.js';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { createTimerClock } from '../helpers/timer-clock.js';
import { startSandbox } from '../sandbox/server.js';
import { loadFixture, readText, run, tempDir, withSandbox } from './harness.js';

/** A real transport that notes when each request left, on the run's clock. */
function recordingTransport(clock: FakeClock): { sent: Array<{ path: string; at: number }>; transport: Transport } {
  const sent: Array<{ path: string; at: number }> = [];
  const fetchTransport = createFetchTransport();
  const transport: Transport = (request) => {
    sent.push({ path: new URL(request.url).pathname, at: clock.now() });
    return fetchTransport(request);
  };
  return { sent, transport };
}

/**
 * Issue 25 end to end through the sandbox: the service as it answers today (feature flags, data
 * migrations, failedBlueprints, epoch resets, Retry-After), each read by the CLI and recorded.
 */
interface Report {
  findings: Array<{ category: string; resource: { identifier: string }; reason: string }>;
  incomplete: Array<{ resource: string; reason: string }>;
  notes?: string[];
}

const readReport = async (out: string) => JSON.parse(await readText(join(out, 'report.json'))) as Report;
const readSnapshot = async (path: string) => JSON.parse(await readText(path)) as OrgSnapshot;

/** The live fixture with feature flags on its organization and, optionally, completed data migrations. */
async function fixtureWith(featureFlags: string[], extra: Partial<OrgSnapshot> = {}): Promise<OrgSnapshot> {
  const snapshot = await loadFixture();
  return { ...snapshot, organization: { ...snapshot.organization, featureFlags }, ...extra };
}

/** Every request the fetch may send: the contract's set plus the one read issue 25 adds. */
const READ_ONLY = [
  /^POST \/v1\/auth\/access_token$/,
  /^GET \/v1\/(organization|blueprints|integration|webhooks|teams|scorecards)$/,
  /^GET \/v1\/(blueprints|actions|pages)\/[^/?]+\/permissions$/,
  /^POST \/v1\/(blueprints\/[^/?]+\/)?entities\/search$/,
  /^GET \/v1\/actions\?version=v2$/,
  /^GET \/v1\/pages\?compact=false$/,
  /^GET \/v1\/users\?fields=email&fields=teams\.name&fields=roles\.name$/,
  /^GET \/v1\/migrations\?blueprint=[^&/]+&status=COMPLETED$/,
];

describe('the migration state from the service\'s feature flag', () => {
  it('flag on: read as migrated with a note on the legacy shapes left, the completed data migrations read, and all recorded in the snapshot', async () => {
    const migrations = { migrated: [{ id: 'mig_1', status: 'COMPLETED', createdAt: '2025-07-01T10:00:00Z', secret: 'not kept' }] };
    await withSandbox({ snapshot: await fixtureWith([MIGRATED_FEATURE_FLAG], { migrations }) }, async (sandbox, clock) => {
      const dir = await tempDir();
      const file = join(dir, 'org.json');
      expect((await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--quiet'], { PORT_TOKEN: sandbox.token }, clock)).code).toBe(0);
      const recorded = await readSnapshot(file);
      expect(recorded.migrationState).toEqual({ migrated: true, source: 'feature-flag' });
      // Only the blueprint that keeps teams in a relation to _team with Direct ownership, which a data
      // move needs first (spec 4.2): not legacy_app (no ownership), not those inheriting over one.
      expect(sandbox.requests.filter((r) => r.path.startsWith('/v1/migrations')).map((r) => r.path)).toEqual(['/v1/migrations?blueprint=migrated&status=COMPLETED']);
      expect(recorded.migrations).toEqual({ migrated: [{ id: 'mig_1', status: 'COMPLETED', sourceBlueprint: 'migrated', createdAt: '2025-07-01T10:00:00Z' }] });
      expect(recorded.liveService).toMatchObject({ featureFlags: true, migrationsRead: 1 });
      // The read-only promise, from the sandbox's own log.
      expect(sandbox.requests.map((r) => `${r.method} ${r.path}`).filter((line) => !READ_ONLY.some((pattern) => pattern.test(line)))).toEqual([]);

      // Analysed later, with the flag cut from the organization record: the recorded state still decides.
      const trimmed = { ...recorded, organization: { id: recorded.organization.id, name: recorded.organization.name } };
      const trimmedFile = join(dir, 'trimmed.json');
      await import('node:fs/promises').then((fs) => fs.writeFile(trimmedFile, JSON.stringify(trimmed)));
      for (const source of [file, trimmedFile]) {
        const out = await tempDir();
        await run(['analyze', '--snapshot', source, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], {}, clock);
        const report = await readReport(out);
        const inherited = report.findings.filter((finding) => finding.category === 'ownership-inherited');
        expect(inherited.length).toBeGreaterThan(0);
        expect(inherited.every((finding) => finding.reason.includes('should have'))).toBe(true);
        expect(report.notes?.join('\n')).toContain('says the org has migrated, but blueprints "beta_app", "microservice" still have teamInheritance');
      }
    });
  });

  it("flag on with a _user blueprint: users' team identifiers read from its entities, email and team only", async () => {
    const base = await fixtureWith([MIGRATED_FEATURE_FLAG]);
    const snapshot: OrgSnapshot = {
      ...base,
      blueprints: [...base.blueprints, { identifier: '_user', title: 'User', schema: { properties: {} }, relations: {} }],
      entities: { ...base.entities, _user: [{ identifier: 'ana@example.com', title: 'Ana Private-Name', team: ['platform_team'] }, { identifier: 'bo@example.com', title: 'Bo' }] },
    };
    await withSandbox({ snapshot }, async (sandbox, clock) => {
      const file = join(await tempDir(), 'org.json');
      expect((await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--quiet'], { PORT_TOKEN: sandbox.token }, clock)).code).toBe(0);
      expect(sandbox.requests.filter((r) => r.path === '/v1/blueprints/_user/entities/search')).toHaveLength(1);
      const recorded = await readSnapshot(file);
      expect(recorded.entities?._user).toEqual([{ identifier: 'ana@example.com', team: ['platform_team'] }, { identifier: 'bo@example.com' }]);
      expect(await readText(file)).not.toContain('Private-Name');
    });
    // Before the migration (no flag) `_user` is not read.
    await withSandbox({ snapshot: { ...snapshot, organization: { id: 'o', name: 'o', featureFlags: [] } } }, async (sandbox, clock) => {
      await run(['snapshot', '--api-url', sandbox.url, '--out', join(await tempDir(), 'org.json'), '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(sandbox.requests.some((r) => r.path === '/v1/blueprints/_user/entities/search')).toBe(false);
    });
  });

  it('flag off in the same half-way org: not migrated, the blueprint with ownership judged by itself, no migrations read', async () => {
    await withSandbox({ snapshot: await fixtureWith(['SOME_OTHER_FLAG']) }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.stderr).toContain('blueprint "migrated" already has ownership');
      const report = await readReport(out);
      const inherited = report.findings.filter((finding) => finding.category === 'ownership-inherited');
      expect(inherited.map((finding) => finding.resource.identifier)).toEqual(['microservice']);
      expect(inherited[0]!.reason).not.toContain('should have');
      expect(report.findings.some((finding) => finding.category === 'team-permission-identifiers')).toBe(true);
      expect(sandbox.requests.some((r) => r.path.startsWith('/v1/migrations'))).toBe(false);
    });
  });
});

describe('the service\'s rate limits and partial answers', () => {
  it('x-ratelimit-reset as an epoch: waits to the reset (never decades), no 429, recorded as seen', async () => {
    await withSandbox({ rateLimit: { limit: 10, windowSeconds: 5, resetAsEpoch: true, rolling: true } }, async (sandbox, clock) => {
      const dir = await tempDir();
      const file = join(dir, 'org.json');
      const result = await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--concurrency', '4'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(clock.sleeps.length).toBeGreaterThan(0);
      expect(clock.sleeps.every((ms) => ms > 0 && ms <= 6_000)).toBe(true);
      const recorded = await readSnapshot(file);
      expect(recorded.liveService).toMatchObject({ rateLimitReset: { seconds: 0 } });
      expect((recorded.liveService as { rateLimitReset: { epoch: number } }).rateLimitReset.epoch).toBe(sandbox.requests.length);
    });
  });

  it('a service whose clock is 10 minutes ahead: its epoch resets are read against its Date header, the run completes (issue 32)', async () => {
    // The sandbox's clock, and so its Date header and its epoch resets, 10 minutes ahead of the run's.
    const ahead = createFakeClock();
    const serviceClock = () => ahead.now() + 10 * 60_000;
    await withSandbox({ now: serviceClock, rateLimit: { limit: 10, windowSeconds: 5, resetAsEpoch: true, rolling: true } }, async (sandbox) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--concurrency', '4'], { PORT_TOKEN: sandbox.token }, ahead);
      expect(result.code, result.stderr).toBe(0);
      expect(ahead.sleeps.length).toBeGreaterThan(0);
      expect(ahead.sleeps.every((ms) => ms > 0 && ms <= 6_000)).toBe(true);
      expect((await readReport(out)).incomplete).toEqual([]);
    });
  });

  it('Retry-After alone: each 429 waits what it says, not the 60 s fallback, and the report is complete', async () => {
    await withSandbox({ rateLimit: { limit: 6, windowSeconds: 4, sendReset: false, sendRemaining: false, retryAfter: true } }, async (sandbox, clock) => {
      const dir = await tempDir();
      const file = join(dir, 'org.json');
      const result = await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests.some((r) => r.status === 429)).toBe(true);
      expect(clock.sleeps.every((ms) => ms <= 4_000)).toBe(true);
      expect((await readSnapshot(file)).incomplete).toBeUndefined();
      expect(((await readSnapshot(file)).liveService as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    });
  });

  it('a wait over the cap: the cap named on stderr, the resource incomplete (exit 3)', async () => {
    await withSandbox({ hostile: { hugeReset: { path: '/v1/pages/services/permissions', seconds: 9_000 } } }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('rate limit: not waiting: GET /v1/pages/services/permissions: rate limited (HTTP 429) and asked to wait 9000 s, over the 300 s this tool waits');
    });
  });

  it('a $team sample the service refuses: named as incomplete (exit 3), never read as "no $team"', async () => {
    await withSandbox({ faults: [{ method: 'POST', path: '/v1/blueprints/service/entities/search', status: 403 }] }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const report = await readReport(out);
      expect(report.incomplete).toContainEqual({ resource: 'entities of blueprint "service"', reason: 'POST /v1/blueprints/service/entities/search: HTTP 403: injected HTTP 403' });
      expect(report.findings.filter((finding) => finding.category === 'ownership-direct').map((finding) => finding.resource.identifier)).not.toContain('service');
    });
  });

  it('a retry of one list holds only what needs it: blueprint permissions are read while the actions list waits its backoff', async () => {
    // The actions list's backoff lasts until a blueprint permission read has left: a fetch that
    // holds those reads behind the actions list would wait for ever (let through after 60 s, far
    // past any machine's pace for them, to fail). What is sent during it is read in order, not timed.
    let permissionLeft!: () => void;
    const blueprintPermissionLeft = new Promise<void>((resolve) => (permissionLeft = resolve));
    const base = createFakeClock();
    const clock: FakeClock = {
      ...base,
      sleep: async (ms) => {
        base.sleeps.push(ms);
        await Promise.race([blueprintPermissionLeft, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
      },
    };
    const sandbox = await startSandbox({ snapshot: await loadFixture(), idleTimeoutMs: 30_000, faults: [{ method: 'GET', path: '/v1/actions?version=v2', status: 503, times: 1 }] });
    try {
      const { sent, transport: recording } = recordingTransport(clock);
      const transport: Transport = (request) => {
        if (/^\/v1\/blueprints\/[^/]+\/permissions$/.test(new URL(request.url).pathname)) permissionLeft();
        return recording(request);
      };
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none', '--quiet', '--concurrency', '32'], { PORT_TOKEN: sandbox.token }, clock, { transport });
      expect(result.code).toBe(0);
      // One backoff of the spec's 1 s, and the actions list asked twice.
      expect(clock.sleeps).toEqual([1_000]);
      const order = (pattern: RegExp) => sent.flatMap((request, index) => (pattern.test(request.path) ? [index] : []));
      const [, retried] = order(/^\/v1\/actions$/);
      expect(retried).toBeDefined();
      expect(order(/^\/v1\/blueprints\/[^/]+\/permissions$/)[0]).toBeLessThan(retried!);
      expect(order(/^\/v1\/actions\/[^/]+\/permissions$/)[0]).toBeGreaterThan(retried!);
    } finally {
      await sandbox.close();
    }
  });

  it('a retry of the organization holds nothing else: the lists are read while it waits its backoff', async () => {
    // Sleepers overlap as real timers do, so the organization's 1 s backoff is time the lists can use.
    const clock = createTimerClock();
    const sandbox = await startSandbox({ snapshot: await loadFixture(), now: clock.now, idleTimeoutMs: 30_000, faults: [{ method: 'GET', path: '/v1/organization', status: 503, times: 1 }] });
    try {
      const { sent, transport } = recordingTransport(clock);
      const start = clock.now();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock, { transport });
      expect(result.code).toBe(0);
      const at = (path: string) => sent.filter((request) => request.path === path).map((request) => request.at - start);
      // The third read is the check at the end that the same org still answers (issue 23).
      expect(at('/v1/organization').slice(0, 2)).toEqual([0, 1_000]);
      expect(at('/v1/organization')).toHaveLength(3);
      // The first lists (as many as the concurrency starts with) leave during the backoff, not after it.
      expect(at('/v1/blueprints')).toEqual([0]);
      expect(at('/v1/actions')).toEqual([0]);
    } finally {
      await sandbox.close();
    }
  });
});
