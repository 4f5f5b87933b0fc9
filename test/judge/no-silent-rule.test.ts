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
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { datasetOrg, expectedComputedRuleClass, expectedVerdict, teamValuesIn, type World } from './two-worlds.js';

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
