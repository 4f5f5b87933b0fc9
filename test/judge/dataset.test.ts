/**
 * An entity input's dataset rule on `$team`: which entities the input offers, before and after,
 * matched against the input blueprint's own entities and edge cases.
 */
import { describe, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judgedRuleRow, RULE_ROWS } from './rule-rows.js';
import { datasetOrg } from './two-worlds.js';

const jq = useJqEngine();

const LOCATION = 'trigger.userInputs.properties.target.dataset.rules[0]';

describe('dataset: (rule, teams, entities) → (class, verdict, rows)', () => {
  for (const row of RULE_ROWS) {
    it(row.name, () => {
      judgedRuleRow(jq, row, datasetOrg, LOCATION);
    });
  }
});
