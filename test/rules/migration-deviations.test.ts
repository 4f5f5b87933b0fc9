import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { judgeRule } from '../../src/judge/site-judge.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import type { JsonObject } from '../../src/model/json.js';
import { RULES } from '../../src/rules/index.js';
import { missedDirectOwnership } from '../../src/rules/missed-direct-ownership.js';
import { missedInheritedOwnership } from '../../src/rules/missed-inherited-ownership.js';
import { missedPermissionIdentifiers } from '../../src/rules/missed-permission-identifiers.js';
import { missedTeamRelationRemoval } from '../../src/rules/missed-team-relation-removal.js';
import type { Rule } from '../../src/rules/rule.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { MigrationPlan } from '../../src/catalog/migration-state.js';
import { blueprint, catalogOf, deepFreeze, org, ruleFor, TEAMS } from '../support/rule-tester.js';

/**
 * The automatic part, checked on an org where the migration has run (some blueprint of its own has
 * `ownership`). Each deviation rule: what the migration left undone is a finding in its automatic
 * category whose reason says what the migration should have done; done right, nothing.
 */
const migrated = (blueprints: JsonObject[], extra: Partial<OrgSnapshot> = {}): OrgSnapshot =>
  org({
    teams: TEAMS,
    blueprints: [blueprint('anchor', { ownership: { type: 'Direct' } }), ...blueprints],
    entities: { anchor: [{ identifier: 'a', team: ['platform'] }] },
    ...extra,
  });
const run = (rule: Rule, snapshot: OrgSnapshot) => judgeRule(catalogOf(snapshot), rule);

describe('deviation rules are registered beside the rules of their category', () => {
  it.each([missedDirectOwnership, missedInheritedOwnership, missedTeamRelationRemoval, missedPermissionIdentifiers])('$category', (rule) => {
    expect(RULES).toContain(rule);
    expect(ruleFor(rule.category)).not.toBe(rule); // the before-the-migration rule comes first
  });
});

describe('missed Direct ownership', () => {
  const owned = { service: [{ identifier: 'checkout', team: ['payments'] }] };
  it('a blueprint whose entities carry $team and has no ownership: the migration should have set Direct', () => {
    const [finding, ...rest] = run(missedDirectOwnership, migrated([blueprint('service')], { entities: owned }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ category: 'ownership-direct', resource: { identifier: 'service' }, location: 'ownership' });
    expect(finding!.reason).toContain('The migration should have set Direct ownership');
    expect(finding!.suggestion).toContain('Set ownership {"type": "Direct"} on the blueprint in the service');
    // Before-the-migration wording is gone: the plan rule stays silent on a migrated org.
    expect(run(ruleFor('ownership-direct'), migrated([blueprint('service')], { entities: owned }))).toEqual([]);
  });
  it('nothing when it has ownership, or when the migration has not run (then the plan says it)', () => {
    expect(run(missedDirectOwnership, migrated([blueprint('service', { ownership: { type: 'Direct' } })], { entities: owned }))).toEqual([]);
    const before = org({ teams: TEAMS, blueprints: [blueprint('service')], entities: owned });
    expect(run(missedDirectOwnership, before)).toEqual([]);
    expect(run(ruleFor('ownership-direct'), before)).toHaveLength(1);
  });
});

describe('missed Inherited ownership', () => {
  const service = blueprint('service', { ownership: { type: 'Direct' } });
  const deployment = (extra: JsonObject) => blueprint('deployment', { relations: { service: { target: 'service', many: false, required: false } }, ...extra });
  it.each([
    ['no ownership, teamInheritance left', { teamInheritance: { path: 'service' } }, 'it has no ownership and still has teamInheritance', 'Set ownership {"type":"Inherited","path":"service"}'],
    ['the wrong ownership', { teamInheritance: { path: 'service' }, ownership: { type: 'Direct' } }, 'it has ownership {"type":"Direct"} instead', 'Set ownership'],
  ])('%s', (_, extra, said, told) => {
    const [finding, ...rest] = run(missedInheritedOwnership, migrated([service, deployment(extra)]));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ category: 'ownership-inherited', resource: { identifier: 'deployment' }, location: 'teamInheritance.path' });
    expect(finding!.reason).toContain('The migration should have replaced teamInheritance over "service" with ownership {"type":"Inherited","path":"service"}');
    expect(finding!.reason).toContain(said);
    expect(finding!.suggestion).toContain(told);
  });
  it('issue 39: teamInheritance left beside the right ownership is dead configuration, a note and no step', () => {
    const snapshot = migrated([service, deployment({ teamInheritance: { path: 'service' }, ownership: { type: 'Inherited', path: 'service' } })]);
    expect(run(missedInheritedOwnership, snapshot)).toEqual([]);
    expect(analyze(buildCatalog(snapshot)).notes).toContainEqual(
      'dead configuration: blueprint "deployment" keeps teamInheritance over "service" beside ownership {"type":"Inherited","path":"service"}; the service ignores it, so it is nothing to migrate (remove it when convenient)',
    );
  });
  it('nothing when Inherited ownership over the same path replaced teamInheritance', () => {
    expect(run(missedInheritedOwnership, migrated([service, deployment({ ownership: { type: 'Inherited', path: 'service' } })]))).toEqual([]);
    expect(run(ruleFor('ownership-inherited'), migrated([service, deployment({ teamInheritance: { path: 'service' } })]))).toEqual([]);
  });
});

describe('missed removal of a relation to _team (beta orgs)', () => {
  const repository = (extra: JsonObject) =>
    blueprint('repository', { relations: { owning_team: { target: '_team', many: true, required: false } }, teamInheritance: { path: 'owning_team' }, ...extra });
  it('teamInheritance over a _team relation still there: the relation should be gone and ownership Direct', () => {
    const [finding, ...rest] = run(missedTeamRelationRemoval, migrated([blueprint('_team'), repository({})]));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ category: 'team-relation-removed', resource: { identifier: 'repository' }, location: 'relations.owning_team' });
    expect(finding!.reason).toContain('The migration should have removed relation "owning_team" to _team');
    expect(finding!.reason).toContain('has no Direct ownership');
    expect(finding!.suggestion).toContain('Migrate data with the mapping {"entity":{"team":".relations.owning_team"}}');
  });
  it('nothing once the relation and teamInheritance are gone with Direct ownership', () => {
    expect(run(missedTeamRelationRemoval, migrated([blueprint('_team'), blueprint('repository', { ownership: { type: 'Direct' } })]))).toEqual([]);
    expect(run(ruleFor('team-relation-removed'), migrated([blueprint('_team'), repository({})]))).toEqual([]);
  });
});

describe('missed team identifiers in permissions', () => {
  const permissions = (teams: string[]) => ({ actionPermissions: { deploy: { execute: { roles: [], users: [], teams } } }, actions: [{ identifier: 'deploy', title: 'Deploy' }] });
  it('a title left in an explicit team list: the migration should have written the identifier', () => {
    const [finding, ...rest] = run(missedPermissionIdentifiers, migrated([], permissions(['platform', 'Payments'])));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ category: 'team-permission-identifiers', resource: { type: 'action', identifier: 'deploy' }, location: 'permissions.execute.teams', rewrite: '["platform","payments"]' });
    expect(finding!.reason).toContain('The migration should have replaced the team title "Payments" with identifiers here and did not');
    expect(finding!.suggestion).toContain('Write ["platform","payments"] in these permissions in the service');
  });
  it('nothing when every entry is an identifier, or names no known team (no title to rewrite)', () => {
    expect(run(missedPermissionIdentifiers, migrated([], permissions(['platform', 'payments'])))).toEqual([]);
    expect(run(missedPermissionIdentifiers, migrated([], permissions(['ghosts'])))).toEqual([]);
    expect(run(ruleFor('team-permission-identifiers'), migrated([], permissions(['Payments'])))).toEqual([]);
  });
  it('a value that is a team identifier today is that team, though another team is titled so: no title left, and no rewrite that moves the permission', () => {
    const teams = [{ name: 'Checkout', identifier: 'payments' }, { name: 'payments', identifier: 'payments-legacy' }, { name: 'Platform Team', identifier: 'platform' }];
    expect(run(missedPermissionIdentifiers, migrated([], { teams, ...permissions(['payments']) }))).toEqual([]);
    // Beside a title that is left, the identifier stays as it is in the rewrite.
    const [finding] = run(missedPermissionIdentifiers, migrated([], { teams, ...permissions(['payments', 'Platform Team']) }));
    expect(finding).toMatchObject({ rewrite: '["payments","platform"]' });
    expect(finding!.reason).toContain('the team title "Platform Team" with identifiers');
    expect(finding!.reason).not.toContain('"payments"');
  });
});

describe('what a migrated org holds loads as it is (item 4)', () => {
  it('a parent_team hierarchy on _team and memberships on _user are no relation ownership', () => {
    const snapshot = migrated([
      blueprint('_team', { relations: { parent_team: { target: '_team', many: false, required: false } } }),
      blueprint('_user', { relations: { teams: { target: '_team', many: true, required: false } } }),
    ]);
    expect(run(ruleFor('relation-ownership'), snapshot)).toEqual([]);
    // An own blueprint with the same relation still is one.
    expect(run(ruleFor('relation-ownership'), migrated([blueprint('_team'), blueprint('squad', { relations: { parent_team: { target: '_team', many: false, required: false } } })]))).toHaveLength(1);
  });

  it('relation ownership: the data moved into Direct ownership leaves nothing; an entity left behind is a finding', () => {
    const incident = blueprint('incident', { ownership: { type: 'Direct' }, relations: { responders: { target: '_team', many: true, required: false } } });
    const moved = migrated([blueprint('_team'), incident], { entities: { anchor: [{ identifier: 'a', team: ['platform'] }], incident: [{ identifier: 'i1', team: ['payments'], relations: { responders: ['payments'] } }] } });
    expect(run(ruleFor('relation-ownership'), moved)).toEqual([]);
    const left = migrated([blueprint('_team'), incident], { entities: { anchor: [{ identifier: 'a', team: ['platform'] }], incident: [{ identifier: 'i1', relations: { responders: ['payments'] } }] } });
    expect(run(ruleFor('relation-ownership'), left)).toMatchObject([{ reason: expect.stringContaining('1 entity still keeps its team only in relation "responders"') }]);
  });

  it('an UPSERT mapping whose team is an array of identifiers is neither a finding nor a note', () => {
    const snapshot = migrated([blueprint('incident', { ownership: { type: 'Direct' } })], {
      actions: [{ identifier: 'open', title: 'Open', trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'incident', userInputs: { properties: {} } }, invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'incident', mapping: { identifier: 'x', team: ['sre_oncall', 'platform'] } } }],
      teams: [...TEAMS, { name: 'SRE On-Call', identifier: 'sre_oncall' }],
    });
    const report = analyze(catalogOf(snapshot));
    expect(report.findings).toEqual([]);
    expect(report.ruleErrors).toBeUndefined();
  });
});

describe('with the previous report as the plan (--since), once teamInheritance is gone', () => {
  const plan = (parts: Partial<MigrationPlan>): MigrationPlan => ({ ownership: new Map(), removedRelations: new Map(), ...parts });
  const runPlanned = (rule: Rule, snapshot: OrgSnapshot, planned: MigrationPlan) => judgeRule(buildCatalog(deepFreeze(structuredClone(snapshot)), { plan: planned }), rule);

  it('Direct planned, none set (and no entity shows it any more): a finding at the id of the plan', () => {
    const planned = plan({ ownership: new Map([['service', { type: 'Direct' }]]) });
    expect(runPlanned(missedDirectOwnership, migrated([blueprint('service')]), planned)).toMatchObject([
      { location: 'ownership', resource: { identifier: 'service' }, reason: expect.stringContaining('The previous report planned Direct ownership for this blueprint; the migration should have set it and did not: it has no ownership.') },
    ]);
    expect(runPlanned(missedDirectOwnership, migrated([blueprint('service', { ownership: { type: 'Direct' } })]), planned)).toEqual([]);
    // A blueprint deleted since is nobody's business.
    expect(runPlanned(missedDirectOwnership, migrated([]), planned)).toEqual([]);
  });

  it('Inherited planned over a path: nothing, or another path, is a finding; the same path is none', () => {
    const planned = plan({ ownership: new Map([['deployment', { type: 'Inherited', path: 'service' }]]) });
    const deployment = (ownership?: JsonObject) => blueprint('deployment', { relations: { service: { target: 'service', many: false, required: false } }, ...(ownership && { ownership }) });
    for (const wrong of [undefined, { type: 'Inherited', path: 'other' }]) {
      expect(runPlanned(missedInheritedOwnership, migrated([blueprint('service'), deployment(wrong)]), planned)).toMatchObject([
        { location: 'teamInheritance.path', rewrite: '{"ownership":{"type":"Inherited","path":"service"}}', reason: expect.stringContaining('teamInheritance is gone, but the blueprint has') },
      ]);
    }
    expect(runPlanned(missedInheritedOwnership, migrated([blueprint('service'), deployment({ type: 'Inherited', path: 'service' })]), planned)).toEqual([]);
  });

  it('a relation planned for removal still there, or no Direct ownership: a finding; gone with Direct: none', () => {
    const planned = plan({ removedRelations: new Map([['repository', 'owning_team']]) });
    const kept = blueprint('repository', { ownership: { type: 'Direct' }, relations: { owning_team: { target: '_team', many: true, required: false } } });
    expect(runPlanned(missedTeamRelationRemoval, migrated([blueprint('_team'), kept]), planned)).toMatchObject([
      { location: 'relations.owning_team', reason: expect.stringContaining('relation "owning_team" is still there') },
    ]);
    expect(runPlanned(missedTeamRelationRemoval, migrated([blueprint('_team'), blueprint('repository')]), planned)).toMatchObject([
      { reason: expect.stringContaining('the blueprint has no Direct ownership') },
    ]);
    expect(runPlanned(missedTeamRelationRemoval, migrated([blueprint('_team'), blueprint('repository', { ownership: { type: 'Direct' } })]), planned)).toEqual([]);
  });

  it('the plan is not read before the migration has run: the plan rules speak then', () => {
    const planned = plan({ ownership: new Map([['service', { type: 'Direct' }]]) });
    expect(runPlanned(missedDirectOwnership, org({ teams: TEAMS, blueprints: [blueprint('service')] }), planned)).toEqual([]);
  });
});
