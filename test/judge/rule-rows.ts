/** `$team` rules shared by the query-rule, widget-filter, scorecard and dataset tables. */
import { expect } from 'vitest';
import type { JqEngine } from '../../src/jq/engine.js';
import type { Finding } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { expectedRuleClass, expectedVerdict, judged, TEAM_SETS, TEAMS, type ExpectedClass } from './two-worlds.js';

export interface RuleRow {
  name: string;
  operator: string;
  value: string | string[];
  shows: ExpectedClass;
}

export const RULE_ROWS: RuleRow[] = [
  { name: 'a title', operator: 'in', value: ['QA'], shows: 'changed' },
  { name: 'a title and its own identifier: the same entities before and after', operator: 'in', value: ['QA', 'qa'], shows: 'same' },
  { name: 'an identifier before the migration: starts matching', operator: 'in', value: ['data_science'], shows: 'changed' },
  { name: 'not in a title: lets everything through after', operator: 'notIn', value: ['QA'], shows: 'changed' },
  { name: 'equals a title', operator: '=', value: 'Beta', shows: 'changed' },
  { name: 'contains a substring of a title', operator: 'contains', value: 'Data', shows: 'changed' },
  { name: 'contains a substring of an identifier', operator: 'contains', value: 'data', shows: 'changed' },
  { name: 'begins with a prefix both share', operator: 'beginsWith', value: 'z', shows: 'changed' },
  { name: 'a string no team holds', operator: 'in', value: ['Nobody'], shows: 'same' },
  { name: 'a title and an identifier no team holds', operator: 'containsAny', value: ['Ghost', 'ghost_id'], shows: 'same' },
];

export const valuesOf = (row: RuleRow) => (Array.isArray(row.value) ? row.value : [row.value]);

/**
 * One row of a rule table: the class jq gives on both worlds must be the one the row names, and
 * the finding at `location` in the org built around the rule must carry the table's verdict for it.
 */
export function judgedRuleRow(jq: JqEngine, row: RuleRow, snapshotOf: (rule: JsonObject) => OrgSnapshot, location: string): Finding {
  const klass = expectedRuleClass(jq, row.operator, valuesOf(row));
  expect(klass, 'the row shows what it says').toBe(row.shows);
  const { finding } = judged(jq, snapshotOf({ property: '$team', operator: row.operator, value: row.value }), location);
  // Issue 39: a rule that matches no entity of any team set in either world never worked: a review, not verified.
  const nobody = klass === 'same' && !matchesSomebody(jq, row);
  expect(finding.verdict).toBe(nobody ? 'review' : expectedVerdict(klass, 'team-comparison'));
  if (nobody) expect(finding.reason).toContain('matches no entity before the migration nor after it');
  return finding;
}

const IDENTIFIERS = new Map(TEAMS.map((team) => [team.name, team.identifier]));

/** Whether jq's matcher matches the rule against an entity of some team set, with titles or with identifiers. */
function matchesSomebody(jq: JqEngine, row: RuleRow): boolean {
  return TEAM_SETS.some((set) => [set, set.map((title) => IDENTIFIERS.get(title)!)].some((teams) => expectedRuleClass.match(jq, row.operator, teams, valuesOf(row))));
}
