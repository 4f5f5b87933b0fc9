/**
 * A widget's `$team` filter, matched against the page blueprint's own entities and edge cases;
 * `impact.rows` counts the org's entities the table shows before and after.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judgedRuleRow, RULE_ROWS, valuesOf } from './rule-rows.js';
import { expectedRuleClass, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

/** The org's services: one per team (titles, as before the migration), and one with none. */
const SERVICES = [...TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name] })), { identifier: 'svc-none', team: [] }];

const READ = SERVICES.filter((s) => s.team.length > 0).slice(0, 5);

const snapshot = (rule: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES },
    pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [rule] } } } } }] }],
  });

const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';

/** Rows shown, counted in jq over the same entities in both worlds. */
function expectedRows(operator: string, values: string[]) {
  const toId = new Map(TEAMS.map((t) => [t.name, t.identifier]));
  // Measured on what a live run reads: a sample of five entities that hold teams.
  const count = (world: 'before' | 'after') =>
    READ.filter((s) => {
      const teams = world === 'before' ? s.team : s.team.map((t) => toId.get(t)!);
      return expectedRuleClass.match(jq, operator, teams, values);
    }).length;
  return { before: count('before'), after: count('after') };
}

describe('widget filter: (rule, teams, entities) → (class, verdict, rows)', () => {
  for (const row of RULE_ROWS) {
    it(row.name, () => {
      const finding = judgedRuleRow(jq, row, snapshot, LOCATION);
      expect(finding.impact?.rows).toEqual(expectedRows(row.operator, valuesOf(row)));
    });
  }
});
