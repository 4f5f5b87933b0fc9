/**
 * Issue 39 item 4: a single `$team` search rule that matches no entity before the migration nor
 * after it is a condition that never worked, not one that keeps working: a review, as a group of
 * rules that matches nobody is. The class is computed by jq in both worlds (every team set, the
 * service's matching written in jq); a rule that matches someone in a world is judged as before.
 */
import { expect } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedComputedRuleClass, expectedVerdict, judgeTable, org, SERVICES_PER_TEAM, type Row } from './two-worlds.js';
import { matchesSomebody as matchesNobodyRows } from './rule-rows.js';

/** A widget's filter of one rule, on services of every team. */
const widgetOrg = (rule: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES_PER_TEAM },
    pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [rule] } } } } }] }],
  });
const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';

const jq = useJqEngine();

interface RuleRow extends Row {
  operator: string;
  values: string[];
}

const literal = (values: readonly string[]) => () => [...values];
const classOf = (row: RuleRow) => expectedComputedRuleClass(jq, row.operator, literal(row.values));

const matchesSomebody = (row: RuleRow) => matchesNobodyRows(jq, { ...row, value: row.values, shows: 'same' });

const ROWS: RuleRow[] = [
  { name: 'a team no one has, by a title the org does not name', expression: '"Ghost"', operator: 'containsAny', values: ['Ghost'] },
  { name: 'two values no team holds', expression: '"Ghost", "ghost_id"', operator: 'in', values: ['Ghost', 'ghost_id'] },
];

judgeTable<RuleRow>('a single $team rule that matches nobody in either world: review', {
  jq,
  kind: 'entity',
  rows: ROWS,
  snapshot: (row) => widgetOrg({ property: '$team', operator: row.operator, value: row.values }),
  location: LOCATION,
  verdict: () => 'review',
  check: ({ row, finding }) => {
    expect(classOf(row), 'the same in both worlds').toBe('same');
    expect(matchesSomebody(row), 'jq matches no entity of any team set in either world').toBe(false);
    expect(finding.reason).toContain('matches no entity before the migration nor after it');
  },
});

judgeTable<RuleRow>('a single $team rule that matches somebody: judged as jq gives its class', {
  jq,
  kind: 'entity',
  rows: [{ name: 'a title of the org', expression: '"QA"', operator: 'containsAny', values: ['QA'] }],
  snapshot: (row) => widgetOrg({ property: '$team', operator: row.operator, value: row.values }),
  location: LOCATION,
  verdict: (_, row) => expectedVerdict(classOf(row), 'gate'),
  check: ({ row }) => expect(matchesSomebody(row)).toBe(true),
});
