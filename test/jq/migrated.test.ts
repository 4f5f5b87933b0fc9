import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import type { Finding, Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

type Blueprint = Record<string, unknown> & { identifier: string; relations?: Record<string, unknown> };
type Entity = Record<string, unknown> & { identifier: string; team?: unknown };

const demo = (): OrgSnapshot & { blueprints: Blueprint[]; entities: Record<string, Entity[]> } =>
  JSON.parse(readFileSync(new URL('../../fixtures/demo-org.json', import.meta.url), 'utf8')) as OrgSnapshot & {
    blueprints: Blueprint[];
    entities: Record<string, Entity[]>;
  };

const IDENTIFIER: Record<string, string> = { 'Platform Team': 'platform', Payments: 'payments', 'SRE On-Call': 'sre_oncall', 'Data Science': 'data_science' };

/**
 * The demo org after the migration: every team has a `_team` entity, entities hold team
 * identifiers, `teamInheritance` became `ownership` (the beta `owning_team` relation is gone),
 * and every other blueprint owns its entities directly. Expressions are left as they were.
 */
function migratedDemo() {
  const org = demo();
  org.entities._team = Object.entries(IDENTIFIER).map(([title, identifier]) => ({ identifier, title }));
  for (const [blueprint, records] of Object.entries(org.entities)) {
    if (blueprint === '_team') continue;
    for (const record of records) if (Array.isArray(record.team)) record.team = record.team.map((title: string) => IDENTIFIER[title] ?? title);
  }
  for (const blueprint of org.blueprints) {
    if (blueprint.identifier.startsWith('_')) continue;
    const inheritance = blueprint.teamInheritance as { path: string } | undefined;
    delete blueprint.teamInheritance;
    if (inheritance && blueprint.relations?.[inheritance.path] && (blueprint.relations[inheritance.path] as { target: string }).target !== '_team') {
      blueprint.ownership = { type: 'Inherited', path: inheritance.path };
    } else {
      if (inheritance) delete blueprint.relations?.[inheritance.path];
      blueprint.ownership = { type: 'Direct' };
    }
  }
  return org;
}

const jq = useJqEngine();

describe('catalog.migrated: has the org already been migrated?', () => {
  it('yes: ownership everywhere, no teamInheritance, every entity team a known identifier', () => {
    expect(buildCatalog(migratedDemo()).migrated).toBe(true);
  });

  it('no: the demo org as it is today (teamInheritance, titles in $team)', () => {
    expect(buildCatalog(demo()).migrated).toBe(false);
  });

  it('yes: one blueprint left with teamInheritance is what the migration left undone, as the note says, not an org that has not migrated', () => {
    const org = migratedDemo();
    org.blueprints.find((b) => b.identifier === 'deployment')!.teamInheritance = { path: 'service' };
    const catalog = buildCatalog(org);
    expect(catalog.migrated).toBe(true);
    expect(catalog.migrationState!.notes.join('\n')).toContain('migrated, as');
  });

  it('no: a blueprint left with teamInheritance beside entities that mostly still hold titles', () => {
    const org = migratedDemo();
    org.blueprints.find((b) => b.identifier === 'deployment')!.teamInheritance = { path: 'service' };
    org.entities.service![0]!.team = ['Payments'];
    org.entities.service![1]!.team = ['Payments'];
    expect(buildCatalog(org).migrated).toBe(false);
  });

  it('yes: a leftover teamInheritance that holds no path (null, {}) is no inheritance', () => {
    for (const leftover of [null, {}]) {
      const org = migratedDemo();
      org.blueprints.find((b) => b.identifier === 'deployment')!.teamInheritance = leftover;
      expect(buildCatalog(org).migrated, JSON.stringify(leftover)).toBe(true);
    }
  });

  it('no: no blueprint uses ownership yet', () => {
    const org = migratedDemo();
    for (const blueprint of org.blueprints) delete blueprint.ownership;
    expect(buildCatalog(org).migrated).toBe(false);
  });

  it('no: as many of a blueprint\'s entities hold team titles as identifiers, or one holds a value that is no known identifier', () => {
    const titles = migratedDemo();
    titles.entities.service![0]!.team = ['Payments'];
    titles.entities.service![1]!.team = ['Payments'];
    expect(buildCatalog(titles).migrated).toBe(false);
    const unknown = migratedDemo();
    unknown.entities.service![0]!.team = ['someone_else'];
    expect(buildCatalog(unknown).migrated).toBe(false);
  });

  it('yes: one entity left holding a title among a blueprint\'s entities holding identifiers is a straggler, not the org\'s world', () => {
    const org = migratedDemo();
    org.entities.service![0]!.team = ['Payments'];
    expect(buildCatalog(org).migrated).toBe(true);
  });

  it('yes: a value that is one team\'s identifier and another team\'s title does not hold the org back', () => {
    // Teams whose title is another team's identifier: "payments" stays Payments's identifier and becomes a title too.
    const org = migratedDemo();
    org.entities._team!.push({ identifier: 'payments_legacy', title: 'payments' });
    expect(buildCatalog(org).migrated).toBe(true);
    // ...but it is no evidence either: an org whose only values are such cannot be told, and is not taken for migrated.
    for (const [blueprint, records] of Object.entries(org.entities)) if (blueprint !== '_team') for (const record of records) if (record.team !== undefined) record.team = ['payments'];
    expect(buildCatalog(org).migrated).toBe(false);
  });

  it('no: entities were not fetched, or none carries a team', () => {
    const withoutEntities = migratedDemo() as OrgSnapshot;
    delete withoutEntities.entities;
    expect(buildCatalog(withoutEntities).migrated).toBe(false);
    const teamless = migratedDemo();
    for (const [blueprint, records] of Object.entries(teamless.entities)) if (blueprint !== '_team') for (const record of records) delete record.team;
    expect(buildCatalog(teamless).migrated).toBe(false);
  });
});

describe('after the migration, pass-through values people read or a receiver gets stay for review (issue 21)', () => {
  let before: Report;
  let after: Report;
  beforeAll(() => {
    before = analyze(buildCatalog(demo(), { jq }));
    after = analyze(buildCatalog(migratedDemo(), { jq }));
  });
  const find = (report: Report, evidence: string): Finding => {
    const found = report.findings.find((f) => f.evidence === evidence);
    if (!found) throw new Error(`no finding for ${evidence}`);
    return found;
  };
  const PASS_THROUGH = [
    '.team | join(", ")', // calculation property owner_list
    '{{ .entity.team | join(",") }}', // webhook body of deploy_service
    '{{ .event.diff.after.team[0] }}', // X-Owner-Team header of the status page automation
  ];

  it('before: each is for review (identifiers where titles were), never silently fine', () => {
    for (const evidence of PASS_THROUGH) expect(find(before, evidence).verdict, evidence).toBe('review');
  });

  it('after: each is still for review, not fixed by the org\'s values changing under it', () => {
    for (const evidence of PASS_THROUGH) {
      expect(find(after, evidence).verdict, evidence).toBe('review');
      expect(find(after, evidence).id).toBe(find(before, evidence).id);
    }
  });

  it('after: a title literal still breaks, since it never matches again', () => {
    const finding = find(after, '.team | index("Platform Team") != null');
    expect(finding).toMatchObject({ verdict: 'breaks', rewrite: '.team | index("platform") != null' });
    expect(finding.reason).not.toContain('already holds team identifiers');
  });

  it('half-migrated (one teamInheritance left): removed-relation reads still break, pass-through stays for review', () => {
    const org = migratedDemo();
    const repository = org.blueprints.find((b) => b.identifier === 'repository')!;
    delete repository.ownership;
    repository.teamInheritance = { path: 'owning_team' };
    repository.relations = { ...(repository.relations as Record<string, unknown>), owning_team: { target: '_team', many: true, required: false } };
    // A calculation already rewritten for identifiers works today: no "apply it with the migration".
    const service = org.blueprints.find((b) => b.identifier === 'service')!;
    service.calculationProperties = { ...(service.calculationProperties as Record<string, unknown>), pays: { title: 'Pays', type: 'boolean', calculation: '.team | index("payments") != null' } };
    const report = analyze(buildCatalog(org, { jq }));
    expect(find(report, '.relations.owning_team | join(",")').verdict).toBe('breaks');
    expect(find(report, '.team | join(", ")').verdict).toBe('review');
    expect(report.findings.filter((f) => f.evidence === '.team | index("payments") != null')).toEqual([]);
  });
});
