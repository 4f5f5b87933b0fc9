import { describe, expect, it } from 'vitest';
import { requestFloor } from '../../bench/request-floor.js';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { MIGRATED_FEATURE_FLAG } from '../../src/catalog/migration-state.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture } from '../live/harness.js';
import { sandboxClient } from './sandbox-client.js';
import { startSandbox } from './server.js';

/**
 * A live read sends no request beyond what the org needs (issue 41): counted from the org by what
 * the API offers (bench/request-floor.ts), not by the fetcher's own plan.
 */
async function requestsOf(snapshot: OrgSnapshot): Promise<{ sent: number; incomplete: number }> {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ snapshot, now: clock.now, idleTimeoutMs: 30_000 });
  try {
    const read = await fetchLiveSnapshot(sandboxClient(sandbox, { now: clock.now, sleep: clock.sleep, concurrency: 8 }));
    return { sent: sandbox.requests.length, incomplete: read.incomplete?.length ?? 0 };
  } finally {
    await sandbox.close();
  }
}

const flagged = (org: OrgSnapshot): OrgSnapshot => ({ ...org, organization: { ...org.organization, featureFlags: [MIGRATED_FEATURE_FLAG] } });

describe('requests of a live read against what the org needs', () => {
  it('the 1x synthetic org, migrated: 1,078, each a read the API requires', async () => {
    const org = flagged(generateSyntheticOrg({ blueprints: 300, actions: 600, pages: 200 }));
    const floor = requestFloor(org, true);
    expect(floor.total).toBe(1_078);
    expect(await requestsOf(org)).toEqual({ sent: floor.total, incomplete: 0 });
  });

  it.each(['fixtures/demo-org.json', 'fixtures/migration-before.json', 'fixtures/migration-after.json', 'fixtures/access-org.json', 'fixtures/public-shapes-org.json'])('%s, before and after the migration', async (path) => {
    const org = await loadFixture(path);
    for (const migrated of [false, true]) {
      const read = await requestsOf(migrated ? flagged(org) : { ...org, organization: { ...org.organization, featureFlags: [] } });
      expect({ path, migrated, ...read }).toEqual({ path, migrated, sent: requestFloor(org, migrated).total, incomplete: read.incomplete });
    }
  });
});
