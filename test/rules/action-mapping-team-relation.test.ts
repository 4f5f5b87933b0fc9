import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { blueprint, org, TEAMS } from '../support/rule-tester.js';

const jq = useJqEngine();

/**
 * A relation to `_team` holds team identifiers, as `$team` does once migrated: an UPSERT that passes
 * the entity's team on into it sets a team value (held out: it was "people will read identifiers").
 * The same value written into an ordinary relation is text people read, still a review.
 */
function migratedOrg(relation: string, target: string): ReturnType<typeof org> {
  return org({
    organization: { id: 'o', name: 'o', featureFlags: ['USERS_AND_TEAMS_OWNERSHIP_V2'] },
    teams: TEAMS,
    blueprints: [blueprint('service', { relations: { [relation]: { target, many: false, required: false } }, ownership: { type: 'Direct' } }), blueprint('domain'), blueprint('_team')],
    actions: [
      {
        identifier: 'sync',
        title: 'sync',
        trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', expressions: ['true'], combinator: 'and' } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '.event.diff.after.identifier', relations: { [relation]: '.event.diff.after.team[0]' } } },
      } as JsonObject,
    ],
    entities: { service: [{ identifier: 'api', title: 'api', team: ['platform'] }], _team: [{ identifier: 'platform', title: 'Platform Team' }, { identifier: 'payments', title: 'Payments' }] },
  });
}

const at = (report: ReturnType<typeof analyze>, location: string) => ({
  findings: report.findings.filter((f) => f.location === location).map((f) => f.verdict),
  verified: (report.verified ?? []).filter((v) => v.location === location).length,
});

describe('UPSERT of the team into a relation (migrated org)', () => {
  it('into a relation to _team: a team value set, nothing to do', () => {
    const report = analyze(buildCatalog(migratedOrg('owning_team', '_team'), { jq }));
    expect(at(report, 'invocationMethod.mapping.relations.owning_team').findings).toEqual([]);
  });

  it('into an ordinary relation: still a review (people read what it holds)', () => {
    const report = analyze(buildCatalog(migratedOrg('domain', 'domain'), { jq }));
    expect(at(report, 'invocationMethod.mapping.relations.domain').findings).toEqual(['review']);
  });
});
