import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { isEntityPage, permissionTargets, skippedPermissionNotes } from '../../src/sources/permission-plan.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture } from '../live/harness.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';
import { startSandbox, type SandboxOptions } from '../sandbox/server.js';

/**
 * `$team` samples are read per blueprint, one page of five each: the search across blueprints has
 * no documented paging nor page size (docs/live-service.md), so its one answer would hold
 * every owned entity of every blueprint asked. The team directory is read on its own, whole.
 */
async function withClient<T>(options: Partial<SandboxOptions> & { snapshot: OrgSnapshot }, use: (client: ApiClient, requests: () => string[]) => Promise<T>) {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ now: clock.now, idleTimeoutMs: 30_000, ...options });
  try {
    const client = sandboxClient(sandbox, { now: clock.now, sleep: clock.sleep, concurrency: 8 });
    return await use(client, () => sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`));
  } finally {
    await sandbox.close();
  }
}

const search = (blueprint: string, status = 200) => `POST /v1/blueprints/${encodeURIComponent(blueprint)}/entities/search ${status}`;

describe('$team ownership samples, one page per blueprint', () => {
  it('a blueprint with thousands of owned entities costs one request of five; none searches across blueprints; the directory is whole', async () => {
    const fixture = await loadFixture();
    const huge = Array.from({ length: 2_500 }, (_, i) => ({ identifier: `h${i}`, team: ['platform_team'] }));
    const snapshot: OrgSnapshot = {
      ...fixture,
      blueprints: [...fixture.blueprints, { identifier: 'huge', title: 'Huge', schema: { properties: {} }, relations: {} }],
      entities: { ...fixture.entities, huge },
    };
    await withClient({ snapshot }, async (client, requests) => {
      const read = await fetchLiveSnapshot(client);
      expect(requests().filter((line) => line === search('huge'))).toHaveLength(1);
      expect(read.entities?.huge?.map((entity) => entity.identifier)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
      expect(requests().some((line) => line.startsWith('POST /v1/entities/search'))).toBe(false);
      expect(requests().filter((line) => line === search('_team'))).toHaveLength(1);
      expect(read.entities?._team).toEqual((fixture.entities?._team ?? []).map(({ identifier, title }) => ({ identifier, title })));
      expect(read.entities?.service?.length).toBe(5);
      expect(read.incomplete ?? []).toEqual([]);
    });
  });

  it('asks for relations only of a blueprint with a relation to _team, the only relations an entity keeps', async () => {
    const fixture = await loadFixture();
    await withClient({ snapshot: fixture }, async (client) => {
      const asked = new Map<string, string[] | undefined>();
      const recording: ApiClient = { ...client, searchEntities: (id, query, options) => (asked.set(id, options.include), client.searchEntities(id, query, options)) };
      const read = await fetchLiveSnapshot(recording);
      const toTeam = (id: string) => Object.values(fixture.blueprints.find((b) => b.identifier === id)?.relations ?? {}).some((r) => (r as { target?: string }).target === '_team');
      expect([...asked.keys()].some(toTeam)).toBe(true);
      expect([...asked.keys()].some((id) => !toTeam(id))).toBe(true);
      for (const [id, include] of asked) expect({ id, relations: include?.includes('relations') }).toEqual({ id, relations: toTeam(id) });
      // The sandbox answers only the fields asked: the relations still to move are read.
      expect(Object.values(read.entities ?? {}).flat().some((entity) => entity?.relations !== undefined)).toBe(true);
    });
  });

  it("a sample the service refuses is that blueprint's gap alone", async () => {
    const fixture = await loadFixture();
    await withClient({ snapshot: fixture, faults: [{ method: 'POST', path: '/v1/blueprints/service/entities/search', status: 403 }] }, async (client, requests) => {
      const read = await fetchLiveSnapshot(client);
      expect(requests()).toContain(search('service', 403));
      expect(read.incomplete).toContainEqual({ resource: 'entities of blueprint "service"', reason: 'POST /v1/blueprints/service/entities/search: HTTP 403: injected HTTP 403' });
      expect(read.incomplete?.filter((entry) => entry.resource.startsWith('entities of'))).toHaveLength(1);
      expect(read.entities).not.toHaveProperty('service');
      expect(read.entities?.system).toBeDefined();
    });
  });
});

describe('permission plan', () => {
  it('reads page permissions of catalog and dashboard pages only, and notes what was skipped', () => {
    const pages = [{ identifier: 'catalog', type: 'blueprint-entities' }, { identifier: 'svc_entity', type: 'entity' }, { identifier: 'home', type: 'dashboard' }];
    expect(permissionTargets(pages, isEntityPage)).toEqual(['catalog', 'home']);
    const notes = skippedPermissionNotes({ format: SNAPSHOT_FORMAT, organization: { id: 'o', name: 'O' }, blueprints: [], pages, actions: [] });
    expect(notes).toEqual([
      "permissions of 1 entity page not read: page permissions apply to catalog and dashboard pages; an entity page follows its blueprint's entity read permissions, which are read",
    ]);
    expect(skippedPermissionNotes({ format: SNAPSHOT_FORMAT, organization: { id: 'o', name: 'O' }, blueprints: [] })).toEqual([]);
  });
});
