/**
 * Issue 39: nothing a search rule over team values holds is dropped without a word. Each rule
 * below touches a team value (`$team`, a user built-in value of teams) with a value the judge
 * could silently skip (null, an empty list, a built-in value, a value of a shape or a property it
 * does not know, an operator it does not know). Where jq can tell, the class is computed in both
 * worlds (`expectedComputedRuleClass`) and the verdict must follow it; where it cannot, the entry
 * is a review that says why. Rules on unrelated properties stay silent.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { isObject, type JsonObject, type JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { datasetOrg, expectedComputedRuleClass, expectedRuleClass, expectedVerdict, TEAM_SETS, TEAMS, teamValuesIn, type ExpectedClass, type World } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'trigger.userInputs.properties.target.dataset.rules[0]';

const entryAt = (rule: JsonObject) => {
  const report = analyze(buildCatalog(datasetOrg(rule), { jq }));
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION);
};

/** Values jq can tell: the rule's value as the service reads it for a user of `userTeams`, in one world. */
const JUDGED: { name: string; rule: JsonObject; valueIn: (userTeams: readonly string[], world: World) => string[] }[] = [
  { name: '$team = null', rule: { property: '$team', operator: '=', value: null }, valueIn: () => [] },
  { name: '$team in []', rule: { property: '$team', operator: 'in', value: [] }, valueIn: () => [] },
  { name: '$team in {context: userTeams, $title}', rule: { property: '$team', operator: 'in', value: { context: 'userTeams', property: '$title' } }, valueIn: (teams) => teamValuesIn(teams, 'before') },
];

describe('a rule on a team value with a value jq can tell is judged, never dropped', () => {
  for (const row of JUDGED) {
    it(row.name, () => {
      const klass = expectedComputedRuleClass(jq, String(row.rule.operator), row.valueIn);
      expect(entryAt(row.rule)?.verdict).toBe(expectedVerdict(klass, 'team-comparison'));
    });
  }
});

/** Rules nothing can tell: a review that says why. */
const REVIEWED: { name: string; rule: JsonObject; why: string }[] = [
  { name: 'a user built-in property with a value of a property this tool does not hold', rule: { property: { context: 'userTeams', property: '$identifier' } as JsonValue, operator: 'in', value: { context: 'user', property: 'department' } } as JsonObject, why: 'does not hold' },
  { name: 'a user built-in property of teams this tool does not know', rule: { property: { context: 'userTeams', property: 'name' } as JsonValue, operator: 'in', value: ['QA'] } as JsonObject, why: 'does not hold' },
  { name: '$team with an operator this tool does not know and a built-in value', rule: { property: '$team', operator: 'matchesSomehow', value: 'My Teams' }, why: 'cannot evaluate' },
  { name: 'a user built-in property with a value of a shape this tool does not know', rule: { property: { context: 'userTeams', property: '$identifier' } as JsonValue, operator: 'in', value: { some: 'object' } } as JsonObject, why: 'a value of a shape this tool does not know' },
];

describe('a rule on a team value nothing can tell is a review that says why', () => {
  for (const row of REVIEWED) {
    it(row.name, () => {
      const entry = entryAt(row.rule);
      expect(entry?.verdict).toBe('review');
      expect(entry?.reason).toContain(row.why);
    });
  }
});

describe('rules on properties that hold no team stay silent', () => {
  for (const rule of [
    { property: 'language', operator: '=', value: null },
    { property: 'language', operator: 'in', value: [] },
    { property: { context: 'user', property: 'department' } as JsonValue, operator: '=', value: 'QA' },
  ] as JsonObject[]) {
    it(JSON.stringify(rule), () => expect(entryAt(rule)).toBeUndefined());
  }
});

// A relation to `_team` the migration keeps holds team identifiers in both worlds; a value that
// follows the user's teams turns from titles into identifiers. Class computed in jq: every team's
// identifier (the related entity) matched against the value each user gives in each world.
const withTeamRelation = (rule: JsonObject) => {
  const snapshot = datasetOrg(rule);
  const service = snapshot.blueprints[0] as JsonObject;
  service.relations = { owner: { title: 'Owner', target: '_team', many: false, required: false } };
  return snapshot;
};
const relationClass = (operator: string, valueIn: (userTeams: readonly string[], world: World) => string[]): ExpectedClass =>
  TEAM_SETS.some((userTeams) => TEAMS.some((team) => expectedRuleClass.match(jq, operator, [team.identifier], valueIn(userTeams, 'before')) !== expectedRuleClass.match(jq, operator, [team.identifier], valueIn(userTeams, 'after'))))
    ? 'changed'
    : 'same';

const RELATION_ROWS: { name: string; rule: JsonObject; valueIn: (userTeams: readonly string[], world: World) => string[] }[] = [
  { name: 'relation to _team in "My Teams"', rule: { property: 'owner', operator: 'in', value: 'My Teams' }, valueIn: (teams, world) => teamValuesIn(teams, world) },
  { name: 'relation to _team in {{ [.user.teams[].name] }} (titles in both worlds)', rule: { property: 'owner', operator: 'in', value: '{{ [.user.teams[].name] }}' }, valueIn: (teams) => [...teams] },
  { name: 'relation to _team in {jqQuery: .user.team}', rule: { property: 'owner', operator: 'in', value: { jqQuery: '.user.team' } }, valueIn: (teams, world) => teamValuesIn(teams, world) },
  { name: 'relation to _team = {{ .user.team[0] }}', rule: { property: 'owner', operator: '=', value: '{{ .user.team[0] }}' }, valueIn: (teams, world) => teamValuesIn(teams, world).slice(0, 1) },
];

/** Alike in both worlds only because, for some user with teams, the value meets no team's identifier: it matches nobody (a review). */
const findsNoTeamForSomeone = (operator: string, valueIn: (userTeams: readonly string[], world: World) => string[]): boolean =>
  TEAM_SETS.some((userTeams) => userTeams.length > 0 && TEAMS.every((team) => !expectedRuleClass.match(jq, operator, [team.identifier], valueIn(userTeams, 'after'))));

describe('a rule on a relation to _team with a value that follows the user is judged, never dropped', () => {
  for (const row of RELATION_ROWS) {
    it(row.name, () => {
      const klass = relationClass(String(row.rule.operator), row.valueIn);
      const report = analyze(buildCatalog(withTeamRelation(row.rule), { jq }));
      const location = isObject(row.rule.value) && 'jqQuery' in row.rule.value ? `${LOCATION}.value.jqQuery` : LOCATION;
      const entry = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === location);
      expect(entry?.verdict).toBe(klass === 'same' && findsNoTeamForSomeone(String(row.rule.operator), row.valueIn) ? 'review' : expectedVerdict(klass, 'team-comparison'));
    });
  }
  it('the rows show both classes', () => {
    expect(new Set(RELATION_ROWS.map((row) => relationClass(String(row.rule.operator), row.valueIn)))).toEqual(new Set(['changed', 'same']));
  });
  it('a value of a shape this tool does not know is a review', () => {
    const report = analyze(buildCatalog(withTeamRelation({ property: 'owner', operator: 'in', value: { some: 'object' } }), { jq }));
    const entry = report.findings.find((f) => f.location === LOCATION);
    expect(entry?.verdict).toBe('review');
    expect(entry?.reason).toContain('a value of a shape this tool does not know');
  });
});

// A policy query names its blueprint with a `$blueprint` rule; a rule of it on that blueprint's
// relation to `_team` was silent, as the query's blueprint was never read.
describe('a policy query rule on a relation to _team is judged, never dropped', () => {
  const policyOrg = (rule: JsonObject) => {
    const snapshot = withTeamRelation({ property: 'language', operator: '=', value: 'go' });
    snapshot.actionPermissions = { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: { mine: { combinator: 'and', rules: [{ property: '$blueprint', operator: '=', value: 'service' }, rule] } }, conditions: ['.results.mine.entities | length > 0'] } }, approve: { roles: [], users: [], teams: [] } } };
    return snapshot;
  };
  for (const row of RELATION_ROWS.filter((r) => typeof r.rule.value === 'string')) {
    it(row.name, () => {
      const klass = relationClass(String(row.rule.operator), row.valueIn);
      const report = analyze(buildCatalog(policyOrg(row.rule), { jq }));
      const entry = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === 'permissions.execute.policy.queries.mine.rules[1]');
      expect(entry?.verdict).toBe(klass === 'same' && findsNoTeamForSomeone(String(row.rule.operator), row.valueIn) ? 'review' : expectedVerdict(klass, 'team-comparison'));
    });
  }
});
