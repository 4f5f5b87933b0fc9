/**
 * Issue 39, held-out misses: search queries the judge never read or never judged whole. A DAY-2
 * action's availability condition (`trigger.condition` of type SEARCH) and an aggregation property's
 * `query` filter entities by `$team` as any search query does; a scorecard rule's `conditions` are a
 * group judged whole with its combinator, as datasets and policy queries are. The class of each
 * comes from matching the rule in jq on an entity of every team set, before and after.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedRuleClass, expectedVerdict, MIGRATED_ORGANIZATION, org, SERVICES_PER_TEAM, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const SERVICE = { identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} };
const report = (snapshot: OrgSnapshot): Report => analyze(buildCatalog(snapshot, { jq }));
const at = (r: Report, location: string) => [...r.findings, ...(r.verified ?? [])].filter((f) => f.location === location);

const RULES: { name: string; rule: { property: string; operator: string; value: string[] }; shows: 'changed' | 'same' }[] = [
  { name: 'a title', rule: { property: '$team', operator: 'containsAny', value: ['QA'] }, shows: 'changed' },
  { name: 'a title and its identifier', rule: { property: '$team', operator: 'containsAny', value: ['QA', 'qa'] }, shows: 'same' },
];

describe("a DAY-2 action's availability condition (trigger.condition, type SEARCH)", () => {
  const restart = (condition: JsonObject) =>
    org({
      blueprints: [SERVICE],
      entities: { service: SERVICES_PER_TEAM },
      actions: [{ identifier: 'restart', title: 'Restart', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', condition, userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    });
  for (const row of RULES) {
    it(`$team rule with ${row.name}: the verdict its class gives`, () => {
      const klass = expectedRuleClass(jq, row.rule.operator, row.rule.value);
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const found = at(report(restart({ type: 'SEARCH', combinator: 'and', rules: [row.rule] })), 'trigger.condition.rules[0]');
      expect(found.map((f) => f.verdict)).toEqual([expectedVerdict(klass, 'team-comparison')]);
    });
  }
  it('a rule on no team value is no finding', () => {
    expect(at(report(restart({ type: 'SEARCH', combinator: 'and', rules: [{ property: '$identifier', operator: '=', value: 'svc-1' }] })), 'trigger.condition.rules[0]')).toEqual([]);
  });
});

describe("an aggregation property's query", () => {
  const domain = (query: JsonObject) =>
    org({
      blueprints: [SERVICE, { identifier: 'domain', title: 'Domain', schema: { properties: {} }, relations: {}, aggregationProperties: { qa_services: { title: 'QA services', type: 'number', target: 'service', query, calculationSpec: { func: 'count', calculationBy: 'entities' } } } }],
      entities: { service: SERVICES_PER_TEAM },
    });
  for (const row of RULES) {
    it(`$team rule with ${row.name}: the verdict its class gives`, () => {
      const klass = expectedRuleClass(jq, row.rule.operator, row.rule.value);
      const found = at(report(domain({ combinator: 'and', rules: [row.rule] })), 'aggregationProperties.qa_services.query.rules[0]');
      expect(found.map((f) => f.verdict)).toEqual([expectedVerdict(klass, 'team-comparison')]);
    });
  }
  it('a rule on no team value is no finding', () => {
    expect(at(report(domain({ combinator: 'and', rules: [{ property: '$identifier', operator: '=', value: 'svc-1' }] })), 'aggregationProperties.qa_services.query.rules[0]')).toEqual([]);
  });
});

describe("a scorecard rule's conditions judged whole", () => {
  const title = { property: '$team', operator: '=', value: 'Data Science' };
  const identifier = { property: '$team', operator: '=', value: 'data_science' };
  const scored = (combinator: string, conditions: JsonObject[], migrated: boolean) => {
    const entities = { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [migrated ? team.identifier : team.name] })) };
    return report(
      org({
        ...(migrated && { organization: MIGRATED_ORGANIZATION }),
        blueprints: [SERVICE],
        entities,
        scorecards: [{ blueprint: 'service', identifier: 'sc', title: 'sc', rules: [{ identifier: 'r', title: 'r', level: 'Gold', query: { combinator, conditions } }] }],
      }),
    );
  };
  const leaves = (r: Report, list: 'findings' | 'verified') => (r[list] ?? []).filter((f) => f.location.startsWith('rules[0].query.conditions[')).map((f) => `${f.location} ${f.verdict}`);

  for (const migrated of [false, true]) {
    it(`${migrated ? 'migrated' : 'unmigrated'}: an \`or\` of a title and its identifier keeps matching the same entities: both leaves verified`, () => {
      const r = scored('or', [title, identifier], migrated);
      expect(leaves(r, 'findings')).toEqual([]);
      expect(leaves(r, 'verified')).toEqual(['rules[0].query.conditions[0] unaffected', 'rules[0].query.conditions[1] unaffected']);
    });
  }
  it('an `or` of two titles still breaks', () => {
    expect(leaves(scored('or', [title, { property: '$team', operator: '=', value: 'QA' }], false), 'findings')).toEqual(['rules[0].query.conditions[0] breaks', 'rules[0].query.conditions[1] breaks']);
  });
});
