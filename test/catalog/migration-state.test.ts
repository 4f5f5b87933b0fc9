import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { migrationRanFor } from '../../src/catalog/catalog.js';
import { MIGRATED_FEATURE_FLAG, readMigrationState } from '../../src/catalog/migration-state.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { blueprint, deepFreeze, org, TEAMS } from '../support/rule-tester.js';

const organization = (featureFlags?: unknown) => ({ id: 'org_test', name: 'Test org', ...(featureFlags === undefined ? {} : { featureFlags }) }) as OrgSnapshot['organization'];
const byId = (blueprints: JsonObject[]) => new Map(blueprints.map((b) => [b.identifier as string, b]));

const owned = blueprint('service', { ownership: { type: 'Direct' } });
const legacy = blueprint('deployment', { relations: { service: { target: 'service', many: false, required: false } }, teamInheritance: { path: 'service' } });

describe('the org migration state: the feature flag first, shapes only without it', () => {
  it('the flag on is migrated whatever the shapes say; leftovers are a note', () => {
    const state = readMigrationState(organization([MIGRATED_FEATURE_FLAG, 'OTHER']), undefined, byId([legacy]));
    expect(state).toMatchObject({ ran: true, source: 'feature-flag' });
    expect(state.notes.join('\n')).toContain('blueprint "deployment" still has teamInheritance');
  });
  it('the flag off is not migrated; a blueprint with ownership is judged by itself, with a note', () => {
    const state = readMigrationState(organization(['OTHER']), undefined, byId([owned, legacy]));
    expect(state).toMatchObject({ ran: false, source: 'feature-flag' });
    expect([...state.migratedBlueprints]).toEqual(['service']);
    expect(state.notes.join('\n')).toContain('blueprint "service" already has ownership');
  });
  it('flags as a map of booleans are read too', () => {
    expect(readMigrationState(organization({ [MIGRATED_FEATURE_FLAG]: true }), undefined, byId([])).ran).toBe(true);
    expect(readMigrationState(organization({ [MIGRATED_FEATURE_FLAG]: false }), undefined, byId([owned])).ran).toBe(false);
  });
  it('without flags, the state the snapshot recorded decides', () => {
    expect(readMigrationState(organization(), { migrated: true, source: 'feature-flag' }, byId([legacy]))).toMatchObject({ ran: true, source: 'recorded' });
    expect(readMigrationState(organization(), { migrated: false, source: 'feature-flag' }, byId([owned]))).toMatchObject({ ran: false, source: 'recorded' });
  });
  it('the flag beats a recorded state that disagrees', () => {
    expect(readMigrationState(organization([]), { migrated: true, source: 'feature-flag' }, byId([]))).toMatchObject({ ran: false, source: 'feature-flag' });
  });
  it('without either, the shapes as before: ownership anywhere is migrated; a mix of both shapes is a note', () => {
    expect(readMigrationState(organization(), undefined, byId([owned]))).toMatchObject({ ran: true, source: 'shapes', notes: [] });
    expect(readMigrationState(organization(), undefined, byId([legacy]))).toMatchObject({ ran: false, source: 'shapes', notes: [] });
    const mixed = readMigrationState(organization(), undefined, byId([owned, legacy]));
    expect(mixed.ran).toBe(true);
    expect(mixed.notes.join('\n')).toContain('the organization record has no featureFlags');
  });
  it('the per-blueprint accessor: the org state, or the blueprint\'s own in a half-way org', () => {
    const halfWay = buildCatalog(org({ organization: organization([]), blueprints: [owned, legacy] }));
    expect(halfWay.migrationRan).toBe(false);
    expect(migrationRanFor(halfWay, 'service')).toBe(true);
    expect(migrationRanFor(halfWay, 'deployment')).toBe(false);
    const done = buildCatalog(org({ organization: organization([MIGRATED_FEATURE_FLAG]), blueprints: [legacy] }));
    expect([done.migrationRan, done.migrated, migrationRanFor(done, 'deployment')]).toEqual([true, true, true]);
  });
});

/** An org with legacy shapes beside one blueprint that has ownership, and team permissions everywhere. */
const halfWayOrg = (featureFlags: string[] | undefined, withOwned = true): OrgSnapshot =>
  deepFreeze(
    org({
      organization: organization(featureFlags),
      teams: TEAMS,
      blueprints: [...(withOwned ? [owned] : [blueprint('service')]), legacy],
      entities: { service: [], deployment: [] },
      blueprintPermissions: { deployment: { entities: { register: { roles: [], users: [], teams: ['Payments'] } } } },
      pages: [{ identifier: 'overview', title: 'Overview', type: 'entities-table', blueprint: 'deployment', widgets: [] }],
      pagePermissions: { overview: { read: { roles: [], users: [], teams: ['Platform Team', 'Ghost team'] } } },
    }),
  );

/** Every (resource, location) the report says something about: findings and what it checked and found fine. */
const judged = (snapshot: OrgSnapshot, category: string) => {
  const report = analyze(buildCatalog(snapshot));
  return [...report.findings, ...(report.verified ?? [])]
    .filter((finding) => finding.category === category)
    .map((finding) => `${finding.resource.type}/${finding.resource.identifier} ${finding.location}`)
    .sort();
};

describe('issue 25, Done when', () => {
  it('the flag on and legacy shapes left: read as migrated, with a note, and the leftovers are what the migration left undone', () => {
    const snapshot = org({ organization: organization([MIGRATED_FEATURE_FLAG]), teams: TEAMS, blueprints: [blueprint('service'), legacy], entities: {} });
    const report = analyze(buildCatalog(snapshot));
    const inherited = report.findings.filter((finding) => finding.category === 'ownership-inherited');
    expect(inherited).toHaveLength(1);
    expect(inherited[0]!.reason).toContain('The migration should have replaced teamInheritance');
    expect(report.notes?.join('\n')).toContain(`the feature flag ${MIGRATED_FEATURE_FLAG} says the org has migrated, but blueprint "deployment" still has teamInheritance`);
  });

  it('the flag off and one ownership blueprint: read as not migrated, and no permission disappears from the report', () => {
    const report = analyze(buildCatalog(halfWayOrg([])));
    const permissions = report.findings.filter((finding) => finding.category === 'team-permission-identifiers');
    // Before-the-migration wording: the migration will rewrite these, it has not failed to.
    expect(permissions.map((finding) => finding.reason).join('\n')).toContain('the migration replaces titles with team identifiers');
    expect(report.findings.find((finding) => finding.category === 'ownership-inherited')?.reason).toContain('The migration replaces teamInheritance');
    expect(report.findings.find((finding) => finding.category === 'ownership-inherited')?.reason).not.toContain('should have');
    expect(report.notes?.join('\n')).toContain('blueprint "service" already has ownership');
    // Every team list the org holds is still judged, exactly as in the same org without the hand-set ownership.
    expect(judged(halfWayOrg([]), 'team-permission-identifiers')).toEqual(['blueprint/deployment permissions.entities.register.teams', 'page/overview permissions.read.teams']);
    expect(judged(halfWayOrg([]), 'team-permission-identifiers')).toEqual(judged(halfWayOrg([], false), 'team-permission-identifiers'));
    expect(judged(halfWayOrg([]), 'ownership-inherited')).toEqual(judged(halfWayOrg([], false), 'ownership-inherited'));
  });
});

describe('without the flag, the entities tell whether team values are identifiers already', () => {
  const migratedWith = (teams: string[][]) =>
    buildCatalog(org({ teams: TEAMS, blueprints: [blueprint('service', { ownership: { type: 'Direct' } })], entities: { service: teams.map((team, i) => ({ identifier: `svc-${i}`, team })) } })).migrated;

  it('every entity holding identifiers: migrated', () => expect(migratedWith([['platform'], ['payments'], ['platform']])).toBe(true));
  it('one entity left holding a title among more holding identifiers: migrated, the straggler is named where it is read', () => expect(migratedWith([['platform'], ['payments'], ['Platform Team']])).toBe(true));
  it('as many holding titles as identifiers: not migrated', () => expect(migratedWith([['platform'], ['Payments']])).toBe(false));
  it('a value no team holds: not migrated', () => expect(migratedWith([['platform'], ['payments'], ['ghost']])).toBe(false));
  it('a title of a team with no identifier yet is a title', () => expect(migratedWith([['platform'], ['Data Science'], ['Payments']])).toBe(false));
});
