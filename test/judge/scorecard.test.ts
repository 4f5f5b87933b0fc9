/**
 * Scorecard rule conditions on `$team`, matched against the blueprint's own entities:
 * `impact.scorecard.flipped` counts the entities whose result flips, computed here in jq.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judgedRuleRow, RULE_ROWS, valuesOf } from './rule-rows.js';
import { expectedRuleClass, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

const SERVICES = [...TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name] })), { identifier: 'svc-two', team: ['QA', 'Beta'] }];

const snapshot = (condition: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES },
    scorecards: [{ blueprint: 'service', identifier: 'ownership', title: 'Ownership', rules: [{ identifier: 'owned', title: 'Owned', level: 'Gold', query: { combinator: 'and', conditions: [condition] } }] }],
  } as never);

const LOCATION = 'rules[0].query.conditions[0]';

function expectedFlipped(operator: string, values: string[]): number {
  const toId = new Map(TEAMS.map((t) => [t.name, t.identifier]));
  // Measured on what a live run reads: a sample of five entities that hold teams.
  return SERVICES.filter((s) => s.team.length > 0).slice(0, 5).filter((s) => expectedRuleClass.match(jq, operator, s.team, values) !== expectedRuleClass.match(jq, operator, s.team.map((t) => toId.get(t)!), values)).length;
}

describe('scorecard: (condition, teams, entities) → (class, verdict, flipped)', () => {
  for (const row of RULE_ROWS) {
    it(row.name, () => {
      const finding = judgedRuleRow(jq, row, snapshot, LOCATION);
      expect(finding.impact?.scorecard?.flipped).toBe(expectedFlipped(row.operator, valuesOf(row)));
    });
  }
});
