/**
 * Issue 39, held-out miss (m6): a calculation that keeps the first word of the entity's first team
 * (`(.team[0] // "unowned") | split(" ") | .[0]`) passes one-word titles through but not others
 * ("Cloud Cost" gives "Cloud" before and "cloud-cost" after). A scorecard rule on it was "matches
 * no entity", as if it were a pass-through; run on the org's entities in both worlds, it changes.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';

const jq = useJqEngine();
const TEAMS = { Storefront: 'storefront', 'Cloud Cost': 'cloud-cost', NOC: 'noc', 'Partner Integrations': 't-991', Labs: 'Labs' };
const CALCULATION = '(.team[0] // "unowned") | split(" ") | .[0]';
const ENTITIES = Object.keys(TEAMS).map((title, i) => ({ identifier: `svc-${i}`, title: `svc-${i}`, team: [title] }));

const snapshot = (value: string): OrgSnapshot =>
  ({
    format: 'org-snapshot/1',
    organization: { id: 'o', name: 'o' },
    teams: Object.keys(TEAMS).map((name) => ({ name })),
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { c_head: { title: 'Head', type: 'string', calculation: CALCULATION } } }],
    entities: { service: ENTITIES },
    scorecards: [{ identifier: 'sc', title: 'sc', blueprint: 'service', rules: [{ identifier: 'r1', title: 'R1', level: 'Gold', query: { combinator: 'and', conditions: [{ property: 'c_head', operator: '=', value }] } }] }],
  }) as OrgSnapshot;

/** Which entities the rule matches in one world: the calculation run by jq on each, then `=`. */
function matching(value: string, world: 'before' | 'after'): string[] {
  return ENTITIES.filter((entity) => {
    const team = entity.team.map((title) => (world === 'before' ? title : TEAMS[title as keyof typeof TEAMS]));
    const result = jq.evaluate({ ...entity, team, properties: {}, relations: {} }, CALCULATION);
    return result.ok && result.values[0] === value;
  }).map((entity) => entity.identifier);
}

describe('a scorecard rule on a calculation that passes only one-word titles through', () => {
  it.each([
    ['Cloud', 'breaks'],
    ['Labs', 'unaffected'],
  ] as const)('c_head = %j', (value, verdict) => {
    const changed = JSON.stringify(matching(value, 'before')) !== JSON.stringify(matching(value, 'after'));
    expect(changed ? 'breaks' : 'unaffected', 'the row shows what it says').toBe(verdict);
    const report = analyze(buildCatalog(snapshot(value), { jq, teamsMap: TEAMS }));
    const found = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === 'rules[0].query.conditions[0]');
    expect(found?.verdict ?? 'unaffected').toBe(verdict);
  });
});
