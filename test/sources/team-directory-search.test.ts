import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { sampleTeamOwnership } from '../../src/sources/team-ownership-search.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture } from '../live/harness.js';
import { startSandbox, type SandboxOptions } from '../sandbox/server.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';

/**
 * The team directory (every `_team` entity) is read by the same search across blueprints as the
 * `$team` samples, one request fewer per run, whenever that search reads its pages to the end;
 * otherwise it is read on its own, as before. Either way the snapshot holds the same directory.
 */
async function withClient<T>(options: Partial<SandboxOptions> & { snapshot: OrgSnapshot }, use: (client: ReturnType<typeof createApiClient>, requests: () => string[]) => Promise<T>) {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ now: clock.now, idleTimeoutMs: 30_000, ...options });
  try {
    const client = sandboxClient(sandbox, { now: clock.now, sleep: clock.sleep, concurrency: 8 });
    return await use(client, () => sandbox.requests.map((r) => `${r.method} ${r.path}`));
  } finally {
    await sandbox.close();
  }
}

const teamSearch = 'POST /v1/blueprints/_team/entities/search';
const acrossBlueprints = 'POST /v1/entities/search';

describe('the team directory read with the $team samples', () => {
  it('one search across blueprints gives the samples and every _team entity; no search of _team alone', async () => {
    const fixture = await loadFixture();
    const team = (fixture.entities?._team ?? []).map(({ identifier, title }) => ({ identifier, title }));
    expect(team.length).toBeGreaterThan(1);
    await withClient({ snapshot: fixture }, async (client, requests) => {
      const snapshot = await fetchLiveSnapshot(client);
      expect(requests().filter((line) => line === acrossBlueprints)).toHaveLength(1);
      expect(requests()).not.toContain(teamSearch);
      expect(snapshot.entities?._team).toEqual(team);
      expect(snapshot.incomplete ?? []).toEqual([]);
    });
  });

  it('_team named in failedBlueprints: read on its own, whole, and no gap', async () => {
    const fixture = await loadFixture();
    await withClient({ snapshot: fixture, failedBlueprints: ['_team'] }, async (client, requests) => {
      const snapshot = await fetchLiveSnapshot(client);
      expect(requests().filter((line) => line === teamSearch)).toHaveLength(1);
      expect(snapshot.entities?._team?.map((entity) => entity.identifier)).toEqual((fixture.entities?._team ?? []).map((entity) => entity.identifier));
      expect(snapshot.incomplete ?? []).toEqual([]);
    });
  });

  it('a search that stops before its pages end (samples full, more pages) leaves the directory to a read of its own', async () => {
    const fixture = await loadFixture();
    const huge = Array.from({ length: 2_500 }, (_, i) => ({ identifier: `h${i}`, team: ['platform_team'] }));
    const snapshot: OrgSnapshot = {
      ...fixture,
      blueprints: [...fixture.blueprints, { identifier: 'huge', title: 'Huge', schema: { properties: {} }, relations: {} }],
      entities: { ...fixture.entities, huge },
    };
    await withClient({ snapshot }, async (client) => {
      const sampled = await sampleTeamOwnership(client, ['huge'], { sampleSize: 5, include: ['$identifier', '$title', '$team'], whole: ['_team'], maxWholeEntities: 50_000 });
      expect(sampled.samples.get('huge')).toHaveLength(5);
      expect(sampled.whole).toBeUndefined();
    });
    await withClient({ snapshot }, async (client) => {
      // With few owned entities the pages end in the one search: the directory is whole.
      const sampled = await sampleTeamOwnership(client, ['service'], { sampleSize: 5, include: ['$identifier', '$title', '$team'], whole: ['_team'], maxWholeEntities: 50_000 });
      expect(sampled.whole?.get('_team')?.map((entity) => entity.identifier)).toEqual((fixture.entities?._team ?? []).map((entity) => entity.identifier));
      // More than the bound: not whole, so the caller's own read names the cut.
      const capped = await sampleTeamOwnership(client, ['service'], { sampleSize: 5, include: ['$identifier'], whole: ['_team'], maxWholeEntities: 1 });
      expect(capped.whole).toBeUndefined();
    });
  });
});
