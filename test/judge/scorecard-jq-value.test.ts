/**
 * Issue 39 item 3: a `$team` rule whose value is jq (`{jqQuery}`) where the site gives it no user or
 * run (a scorecard's condition). A value jq computes from nothing the site lacks (the same on every
 * input) is run in both worlds and the rule judged whole, as a dataset's is; one that reads what no
 * scorecard holds (the user's teams) stays a review that says why. Classes come from jq in both worlds.
 */
import { expect } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedComputedRuleClass, expectedVerdict, jqRuleValue, judgeTable, org, type Row } from './two-worlds.js';

const jq = useJqEngine();

interface ScorecardRow extends Row {
  operator: string;
}

const scorecardOrg = (rule: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    scorecards: [{ identifier: 'sc', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'owned', title: 'Owned', level: 'Gold', query: { combinator: 'and', conditions: [rule] } }] }],
  });

const LOCATION = 'rules[0].query.conditions[0].value.jqQuery';

judgeTable<ScorecardRow>('a scorecard $team rule whose jq value reads nothing: run in both worlds, the rule judged whole', {
  jq,
  kind: 'entity',
  rows: [
    { name: 'a title computed by jq', operator: 'containsAny', expression: '["Data" + " Science"]' },
    { name: 'an identifier computed by jq', operator: 'containsAny', expression: '["data_science"]' },
    { name: 'titles joined and split', operator: 'in', expression: '"QA,Alpha" | split(",")' },
  ],
  snapshot: (row) => scorecardOrg({ property: '$team', operator: row.operator, value: { jqQuery: row.expression } }),
  location: LOCATION,
  verdict: (_, row) => expectedVerdict(expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'entity', row.expression)), 'team-comparison'),
  check: ({ finding, row }) => {
    expect(expectedComputedRuleClass(jq, row.operator, jqRuleValue(jq, 'entity', row.expression)), 'a title is matched by no team once teams are identifiers').toBe('changed');
    expect(finding.reason).not.toContain('cannot read');
  },
});

judgeTable<ScorecardRow>('a scorecard $team rule whose jq value reads the user: a scorecard has no user, a review that says so', {
  jq,
  kind: 'user-input',
  rows: [{ name: "the user's teams", operator: 'containsAny', expression: '.user.team' }],
  snapshot: (row) => scorecardOrg({ property: '$team', operator: row.operator, value: { jqQuery: row.expression } }),
  location: 'rules[0].query.conditions[0]',
  verdict: () => 'review',
  check: ({ finding }) => expect(finding.reason).toContain('runs on data this tool cannot read'),
});
