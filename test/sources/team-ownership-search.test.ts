import { describe, expect, it } from 'vitest';
import type { ApiClient, SearchOptions, SearchQuery } from '../../src/api/client.js';
import type { JsonObject } from '../../src/model/json.js';
import { isEntityPage, permissionTargets, skippedPermissionNotes } from '../../src/sources/permission-plan.js';
import { sampleTeamOwnership } from '../../src/sources/team-ownership-search.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';

/** A client over a list of owned entities, paged by `limit`, filtered by the `$blueprint in` rule. */
function fakeClient(owned: Array<{ blueprint: string; identifier: string }>) {
  const queries: string[][] = [];
  const client: Pick<ApiClient, 'searchEntities'> = {
    async searchEntities(blueprintId: string | undefined, query: SearchQuery, options: SearchOptions) {
      expect(blueprintId).toBeUndefined();
      const allowed = (query.rules.find((rule) => rule.property === '$blueprint')?.value ?? []) as string[];
      queries.push(allowed);
      const matched = owned.filter((entity) => allowed.includes(entity.blueprint)).map((entity) => ({ ...entity, team: ['Payments'] }) as JsonObject);
      for (let offset = 0; offset < matched.length; offset += options.limit) {
        if (options.onPage?.(matched.slice(offset, offset + options.limit), { more: offset + options.limit < matched.length }) === false) break;
      }
      return [];
    },
  };
  return { client: client as ApiClient, queries };
}

const entities = (blueprint: string, count: number) => Array.from({ length: count }, (_, i) => ({ blueprint, identifier: `${blueprint}-${i}` }));

describe('$team ownership samples in one search across blueprints', () => {
  it('one search answers every blueprint when the owned entities fit its pages', async () => {
    const { client, queries } = fakeClient([...entities('a', 3), ...entities('b', 7)]);
    const { samples, searches } = await sampleTeamOwnership(client, ['a', 'b', 'c'], { sampleSize: 5, include: [] });
    expect(searches).toBe(1);
    expect(queries).toEqual([['a', 'b', 'c']]);
    expect(samples.get('a')?.map((e) => e.identifier)).toEqual(['a-0', 'a-1', 'a-2']);
    expect(samples.get('b')).toHaveLength(5);
    expect(samples.get('c')).toEqual([]);
  });

  it('a blueprint that fills the pages is dropped and the search starts again without it', async () => {
    const { client, queries } = fakeClient([...entities('huge', 5_000), ...entities('small', 2)]);
    const { samples, searches } = await sampleTeamOwnership(client, ['huge', 'small'], { sampleSize: 5, include: [] });
    expect(searches).toBe(2);
    expect(queries).toEqual([['huge', 'small'], ['small']]);
    expect(samples.get('huge')).toHaveLength(5);
    expect(samples.get('small')).toHaveLength(2);
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
