import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { buildFixKit } from '../../src/fix/build-fix-kit.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';

/** An org whose `cloud_resource` keeps its team only in a relation to `_team`, with `count` entities. */
function orgWithRelationOwnership(count: number): OrgSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    organization: { id: 'org_1', name: 'Bulk' },
    teams: [{ name: 'Platform Team', identifier: 'platform' }, { name: 'Payments', identifier: 'payments' }],
    blueprints: [
      { identifier: '_team', title: 'Team', schema: { properties: {} } },
      { identifier: 'cloud_resource', title: 'Cloud resource', relations: { responsible_team: { target: '_team', many: false, required: false } } },
    ],
    entities: {
      _team: [{ identifier: 'platform', title: 'Platform Team' }, { identifier: 'payments', title: 'Payments' }],
      cloud_resource: Array.from({ length: count }, (_, i) => ({ identifier: `res-${i}`, relations: { responsible_team: i % 2 === 0 ? 'platform' : 'payments' } })),
    },
    scorecards: [],
  };
}

describe('data-migration files', () => {
  it('250 entities give 3 bulk payloads of 100, 100 and 50, each entity with its team from the relation', () => {
    const catalog = buildCatalog(orgWithRelationOwnership(250));
    const report = analyze(catalog);
    const finding = report.findings.find((f) => f.category === 'relation-ownership')!;
    const kit = buildFixKit({ catalog, report });
    const bulk = kit.files.filter((file) => file.kind === 'bulk-upsert');
    expect(bulk.map((file) => file.path)).toEqual([
      'data-migration/bulk/cloud_resource-001.json',
      'data-migration/bulk/cloud_resource-002.json',
      'data-migration/bulk/cloud_resource-003.json',
    ]);
    const payloads = bulk.map((file) => JSON.parse(file.content) as { entities: { identifier: string; team: string[] }[] });
    expect(payloads.map((p) => p.entities.length)).toEqual([100, 100, 50]);
    for (const payload of payloads) {
      // The body of POST /v1/blueprints/{id}/entities/bulk: only `entities`, each with its team and every
      // other field the snapshot holds of it (relations here), so an upsert that replaces the entity keeps them.
      expect(Object.keys(payload)).toEqual(['entities']);
      for (const entity of payload.entities) {
        expect(Object.keys(entity)).toEqual(['identifier', 'relations', 'team']);
        expect(entity).toMatchObject({ relations: { responsible_team: entity.team[0] } });
        expect(entity.team).toEqual([Number(entity.identifier.slice(4)) % 2 === 0 ? 'platform' : 'payments']);
      }
    }
    expect(new Set(payloads.flatMap((p) => p.entities.map((e) => e.identifier))).size).toBe(250);
    expect(bulk.every((file) => file.findings.includes(finding.id))).toBe(true);
    const mapping = kit.files.find((file) => file.path === 'data-migration/cloud_resource.json')!;
    expect(JSON.parse(mapping.content)).toEqual({ entity: { team: '.relations.responsible_team' } });
    // The same move as the body of POST /v1/migrations, beside the builder mapping; never sent by the tool.
    const request = kit.files.find((file) => file.path === 'data-migration/api/cloud_resource.json')!;
    expect(request.kind).toBe('data-migration');
    expect(request.findings).toEqual([finding.id]);
    expect(JSON.parse(request.content)).toEqual({
      sourceBlueprint: 'cloud_resource',
      mapping: {
        blueprint: 'cloud_resource',
        filter: '((.relations.responsible_team // []) | if type == "array" then length > 0 else true end)',
        entity: { identifier: '.identifier', team: '.relations.responsible_team' },
      },
    });
    const readme = kit.files.find((file) => file.path === 'data-migration/README.md')!.content;
    expect(readme).toContain('-X POST "$PORT_API/v1/migrations"');
    expect(readme).toContain('--data @api/cloud_resource.json');
    expect(readme).toContain('GET /v1/migrations?blueprint=<blueprint>&status=COMPLETED');
    // Only what spec §4.1 documents: `upsert=true`, no `merge`; and the README says what the payload cannot keep.
    expect(readme).toContain('/v1/blueprints/cloud_resource/entities/bulk?upsert=true"');
    expect(readme).not.toMatch(/merge/);
    expect(readme).toMatch(/properties.*not in these files/);
    expect(readme).toMatch(/prefer the builder's `Migrate data`/);
    expect(readme).toContain('--data @bulk/cloud_resource-003.json');
    expect(readme).toContain('Request budget: 3 requests');
  });

  it('100 entities are one payload; entities with no relation value are not sent', () => {
    const org = orgWithRelationOwnership(100);
    org.entities!.cloud_resource!.push({ identifier: 'orphan', relations: { responsible_team: null } });
    const catalog = buildCatalog(org);
    const kit = buildFixKit({ catalog, report: analyze(catalog) });
    const bulk = kit.files.filter((file) => file.kind === 'bulk-upsert');
    expect(bulk).toHaveLength(1);
    expect((JSON.parse(bulk[0]!.content) as { entities: unknown[] }).entities).toHaveLength(100);
  });

  it('an org without relation ownership gets no data-migration files', () => {
    const org = orgWithRelationOwnership(3);
    org.blueprints[1]!.relations = {};
    const catalog = buildCatalog(org);
    const kit = buildFixKit({ catalog, report: analyze(catalog) });
    expect(kit.files.filter((file) => file.path.startsWith('data-migration/'))).toEqual([]);
  });
});
