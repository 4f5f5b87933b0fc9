/**
 * An entity input's dataset rule on `$team`: which entities the input offers, before and after,
 * matched against the input blueprint's own entities and edge cases.
 */
import { describe, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judgedRuleRow, RULE_ROWS } from './rule-rows.js';
import { org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

const SERVICES = TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name] }));

const snapshot = (rule: JsonObject) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES },
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { target: { type: 'string', format: 'entity', blueprint: 'service', dataset: { combinator: 'and', rules: [rule] } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

const LOCATION = 'trigger.userInputs.properties.target.dataset.rules[0]';

describe('dataset: (rule, teams, entities) → (class, verdict, rows)', () => {
  for (const row of RULE_ROWS) {
    it(row.name, () => {
      judgedRuleRow(jq, row, snapshot, LOCATION);
    });
  }
});
