/**
 * Issue 29, class 1: a `$team` rule whose value is computed (a dataset's `{jqQuery}`, a policy
 * query's `{{ }}` template) is judged as the service matches it: `$team` of the entities on one
 * side, the value run with that world's user on the other, then the rule's operator. The expected
 * class is computed here by running the value in jq on each user in both worlds and matching it in
 * jq against an entity of every team set.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { datasetOrg, expectedComputedRuleClass, expectedVerdict, jqRuleValue, judged, org, SERVICES_PER_TEAM, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();

interface ComputedRow {
  name: string;
  operator: string;
  expression: string;
  shows: ExpectedClass;
}

const DATASET_ROWS: ComputedRow[] = [
  { name: 'the service\'s own example: .user.team turns into identifiers with $team', operator: 'containsAny', expression: '.user.team', shows: 'same' },
  { name: 'the documented names stay titles while $team turns into identifiers', operator: 'containsAny', expression: '[.user.teams[].name]', shows: 'changed' },
  { name: 'the migration guide\'s replacement', operator: 'containsAny', expression: '[.user.teamsIdentifiers[]]', shows: 'same' },
  { name: 'a title literal in jq', operator: 'in', expression: '["Data Science"]', shows: 'changed' },
  { name: 'all but one title', operator: 'containsAny', expression: '[.user.team[] | select(. != "QA")]', shows: 'changed' },
  { name: 'a list wrapped in a list (the docs\' "non-working" [.user.team])', operator: 'containsAny', expression: '[.user.team]', shows: 'same' },
  { name: 'lower-cased team values', operator: 'containsAny', expression: '.user.team | map(ascii_downcase)', shows: 'changed' },
  { name: 'names by map(.name), with in', operator: 'in', expression: '.user.teams | map(.name)', shows: 'changed' },
  { name: 'the user\'s team values, with notIn', operator: 'notIn', expression: '.user.team', shows: 'same' },
  { name: 'the entity\'s own teams', operator: 'containsAny', expression: '.entity.team', shows: 'same' },
  { name: 'names, excluded with notIn', operator: 'notIn', expression: '[.user.teams[].name]', shows: 'changed' },
  { name: 'the names as a stream, not a list', operator: 'containsAny', expression: '.user.teams[].name', shows: 'changed' },
  { name: 'the team values as a stream', operator: 'containsAny', expression: '.user.team[]', shows: 'same' },
  { name: 'the team values reversed: the same set', operator: 'in', expression: '.user.team | reverse', shows: 'same' },
  { name: 'lower-cased names: match nothing before, a team whose identifier is its title in lower case after', operator: 'containsAny', expression: '.user.teams | map(.name | ascii_downcase)', shows: 'changed' },
];

const POLICY_ROWS: ComputedRow[] = [
  { name: 'the runner\'s teams through a template', operator: 'containsAny', expression: '.user.team', shows: 'same' },
  { name: 'the runner\'s team names through a template', operator: 'containsAny', expression: '[.user.teams[].name]', shows: 'changed' },
  { name: 'the runner\'s team names by map(.name), with in', operator: 'in', expression: '.user.teams | map(.name)', shows: 'changed' },
  { name: 'the runner\'s teams, with notIn', operator: 'notIn', expression: '.user.team', shows: 'same' },
];

/** Values a scorecard rule computes with no input: run like a `{jqQuery}`, on an entity. */
const SCORECARD_ROWS: ComputedRow[] = [
  { name: 'a title as a jq string', operator: '=', expression: '"QA"', shows: 'changed' },
  { name: 'titles as a jq list', operator: 'in', expression: '["QA", "Alpha"]', shows: 'changed' },
  { name: 'a title built by jq', operator: '=', expression: '"Q" + "A"', shows: 'changed' },
  { name: 'a string that is no team', operator: '=', expression: '"nobody"', shows: 'same' },
];

const scorecardOrg = (rule: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES_PER_TEAM },
    scorecards: [{ blueprint: 'service', identifier: 'sc', title: 'sc', rules: [{ identifier: 'r', title: 'r', level: 'Gold', query: { combinator: 'and', conditions: [rule] } }] }],
  });

const policyOrg = (rule: JsonObject) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: {
      deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: { mine: { combinator: 'and', rules: [rule] } }, conditions: ['.results.mine.entities | length > 0'] } }, approve: { roles: [], users: [], teams: [] } },
    },
  });

describe('a $team rule with a jq value: (site, rule, teams, entities) → (class, verdict)', () => {
  for (const row of DATASET_ROWS) {
    it(`dataset: ${row.name}`, () => {
      const klass = expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'user-input', row.expression));
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const { finding } = judged(jq, datasetOrg({ property: '$team', operator: row.operator, value: { jqQuery: row.expression } }), 'trigger.userInputs.properties.target.dataset.rules[0].value.jqQuery');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'team-comparison'));
      expect(finding.evidence).toBe(row.expression);
    });
  }
  for (const row of POLICY_ROWS) {
    it(`policy query template: ${row.name}`, () => {
      const klass = expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'policy', row.expression));
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const { finding } = judged(jq, policyOrg({ property: '$team', operator: row.operator, value: `{{ ${row.expression} }}` }), 'permissions.execute.policy.queries.mine.rules[0]');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'team-comparison'));
    });
  }

  // Held-out: a scorecard rule's `{{ }}` value was never run (a review: "runs on data this tool cannot
  // read"), though a scorecard's `{jqQuery}` that reads nothing is; both are run alike now.
  for (const row of SCORECARD_ROWS) {
    it(`scorecard template: ${row.name}`, () => {
      const klass = expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'entity', row.expression));
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const { finding } = judged(jq, scorecardOrg({ property: '$team', operator: row.operator, value: `{{ ${row.expression} }}` }), 'rules[0].query.conditions[0]');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'team-comparison'));
      expect(finding.reason).toContain(`the jq ${JSON.stringify(row.expression)}`);
    });
  }

  it('a scorecard template that reads the entity is still data this tool cannot read: review, never a literal', () => {
    const { finding } = judged(jq, scorecardOrg({ property: '$team', operator: '=', value: '{{ .team }}' }), 'rules[0].query.conditions[0]');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('which runs on data this tool cannot read');
  });

  it('the names example says why and what to write instead', () => {
    const { finding } = judged(jq, datasetOrg({ property: '$team', operator: 'containsAny', value: { jqQuery: '[.user.teams[].name]' } }), 'trigger.userInputs.properties.target.dataset.rules[0].value.jqQuery');
    expect(finding.reason).toContain('for a user with team');
    expect(finding.suggestion).toContain('.user.teamsIdentifiers');
  });
});

/**
 * Read without its org (a repository alone, or a snapshot that names no teams), the judge has only
 * stand-in teams of the shapes real teams have. A rule with no team literal behaves on them as on
 * the org's own teams, so it gets the verdict they give it. Where the org names its teams, a
 * stand-in is a team it does not have, and a change only stand-ins show stays for review.
 */
describe('a $team rule with a jq value, read where no team is known', () => {
  const noTeams = (snapshot: ReturnType<typeof datasetOrg>) => ({ ...snapshot, teams: [], users: [], entities: { service: [] } });
  const literalFree = DATASET_ROWS.filter((row) => !row.expression.includes('"'));
  it('has rows of both classes', () => {
    const classes = new Set(literalFree.map((row) => expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'user-input', row.expression))));
    expect([...classes].sort()).toEqual(['changed', 'same']);
  });
  for (const row of literalFree) {
    it(`dataset: ${row.name}`, () => {
      const klass = expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'user-input', row.expression));
      const { finding } = judged(jq, noTeams(datasetOrg({ property: '$team', operator: row.operator, value: { jqQuery: row.expression } })), 'trigger.userInputs.properties.target.dataset.rules[0].value.jqQuery');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'team-comparison'));
    });
  }
  it('an org that names its teams, none of whose identifiers differ from their titles: stand-ins show teams it does not have (negative case)', () => {
    const sameNames = [{ name: 'platform', identifier: 'platform' }];
    const { finding } = judged(jq, { ...noTeams(datasetOrg({ property: '$team', operator: 'containsAny', value: { jqQuery: '[.user.teams[].name]' } })), teams: sameNames }, 'trigger.userInputs.properties.target.dataset.rules[0].value.jqQuery');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('a team the org does not name');
  });
});
