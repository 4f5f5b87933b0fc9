import { describe, expect, it } from 'vitest';
import { createFetchTransport, type Transport } from '../../src/api/transport.js';
import { MIGRATED_FEATURE_FLAG } from '../../src/catalog/migration-state.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { loadFixture } from '../live/harness.js';
import { createTimerClock } from '../helpers/timer-clock.js';
import { startSandbox } from '../sandbox/server.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';

/**
 * Issue 25 item 4: the organization and the lists start together (issue 33: the lists no other
 * read waits for once the blueprints list is in), and a retry of the organization
 * holds only the reads its feature flags decide (the migrations, the `_user` entities). The clock
 * is injected (sleepers overlap as timers do); no test here sleeps for real.
 */
describe('the organization read holds nothing it does not decide', () => {
  it('a slow 503 on the organization: the lists leave with it, the permissions before its answer, the migrations after', async () => {
    const clock = createTimerClock();
    const fixture = await loadFixture();
    const snapshot = {
      ...fixture,
      organization: { ...fixture.organization, featureFlags: [MIGRATED_FEATURE_FLAG] },
      migrations: { migrated: [{ id: 'mig_1', status: 'COMPLETED' }] },
    };
    const sandbox = await startSandbox({ snapshot, now: clock.now, idleTimeoutMs: 30_000, faults: [{ method: 'GET', path: '/v1/organization', status: 503, times: 1 }] });
    try {
      // Every request as it leaves, and the organization's answers, in the order they happened.
      const events: Array<{ what: string; at: number }> = [];
      const fetchTransport = createFetchTransport();
      let organizationAttempts = 0;
      let releaseOrganization!: () => void;
      const organizationHeld = new Promise<void>((resolve) => (releaseOrganization = resolve));
      const transport: Transport = async (request) => {
        const path = new URL(request.url).pathname;
        events.push({ what: path, at: clock.now() });
        if (/\/permissions$/.test(path)) releaseOrganization();
        if (path !== '/v1/organization') return fetchTransport(request);
        const attempt = ++organizationAttempts;
        // The first answer (the 503) is slow: it comes once a permission read has left. A fetch that
        // sends none before it (the one this test was written against) would wait for ever: after
        // 60 s, far past any machine's pace for what must come first, it is let through to fail.
        if (attempt === 1) await Promise.race([organizationHeld, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
        const response = await fetchTransport(request);
        events.push({ what: `organization answered ${response.status}`, at: clock.now() });
        return response;
      };
      const start = clock.now();
      const client = sandboxClient(sandbox, { transport, now: clock.now, sleep: clock.sleep, concurrency: 16 });
      const result = await fetchLiveSnapshot(client);
      const order = (pattern: RegExp) => events.flatMap((event, index) => (pattern.test(event.what) ? [index] : []));
      const [first503] = order(/^organization answered 503$/);
      const [answered] = order(/^organization answered 200$/);

      // Retried after the 1 s backoff of the spec; the third read is the check at the end.
      expect(events.filter((event) => event.what === '/v1/organization').map((event) => event.at - start)).toEqual([0, 1_000, 1_000]);
      expect(result.migrationState).toEqual({ migrated: true, source: 'feature-flag' });
      // The lists other reads wait for leave with the organization, before its first answer.
      for (const list of [/^\/v1\/blueprints$/, /^\/v1\/actions$/, /^\/v1\/pages$/]) {
        expect(order(list)).toHaveLength(1);
        expect(order(list)[0]).toBeLessThan(first503!);
      }
      // Issue 33: those no read waits for leave once the blueprints list is in, behind its
      // permission reads, whatever the organization answers.
      const [firstBlueprintPermission] = order(/^\/v1\/blueprints\/[^/]+\/permissions$/);
      for (const list of [/^\/v1\/teams$/, /^\/v1\/users$/]) {
        expect(order(list)).toHaveLength(1);
        expect(order(list)[0]).toBeGreaterThan(firstBlueprintPermission!);
      }
      // Their permissions need only the lists: they leave while the organization's first answer is
      // still out (the fetch this was written against sent none before the organization answered).
      const permissions = order(/^\/v1\/(blueprints|actions|pages)\/[^/]+\/permissions$/);
      expect(permissions.length).toBeGreaterThan(3);
      expect(permissions[0]).toBeLessThan(first503!);
      // The migrations read is asked only once the flag is known.
      expect(order(/^\/v1\/migrations$/)).toHaveLength(1);
      expect(order(/^\/v1\/migrations$/)[0]).toBeGreaterThan(answered!);
      expect(result.migrations).toEqual({ migrated: [{ id: 'mig_1', status: 'COMPLETED', sourceBlueprint: 'migrated' }] });
      expect(result.incomplete ?? []).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
