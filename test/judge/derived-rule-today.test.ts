/**
 * Issue 39: on a migrated org, a search rule on a calculation derived from `$team` is judged
 * against what the calculation computes on the org's entities today, which hold team identifiers.
 * `.team[0] | split("_")[0]` gives "data" on the entity of team `data_science`: a rule `= "data"`
 * is written for what the org computes today, where the same rule before the migration (on "Data
 * Science") matched nothing. A value the calculation gives on no entity today still breaks.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { migrationPart, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'rules[0].query.conditions[0]';

function judgedRule(calculation: string, rule: JsonObject, migrated = true) {
  const report = analyze(
    buildCatalog(
      org({
        ...migrationPart(migrated),
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...(migrated && { ownership: { type: 'Direct' } }), calculationProperties: { head: { title: 'Head', calculation, type: 'string' } } }],
        // As the org holds them: identifiers once migrated, titles before.
        entities: { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [migrated ? team.identifier : team.name] })) },
        scorecards: [{ identifier: 'sc', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'r', title: 'R', level: 'Gold', query: { combinator: 'and', conditions: [rule] } }] }],
      }),
      { jq },
    ),
  );
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION);
}

describe('a rule on a calculation derived from $team, on a migrated org', () => {
  it.each([
    ['.team[0] | split("_")[0]', '=', 'data'],
    ['.team[0] | split("_")[0]', 'in', ['data', 'qa']],
    ['.team | join(",")', 'beginsWith', 'data'],
    ['.team | map(ascii_upcase) | join(",")', 'contains', 'DATA_SCI'],
  ])('%s %s %j: written for what the entities compute today', (calculation, operator, value) => {
    expect(judgedRule(calculation, { property: 'head', operator, value })?.verdict ?? 'unaffected').toBe('unaffected');
  });

  it.each([
    ['.team[0] | split("_")[0]', '=', 'QA'],
    ['.team | join(",")', 'beginsWith', 'Data Sc'],
  ])('%s %s %j: a value no entity computes today breaks', (calculation, operator, value) => {
    expect(judgedRule(calculation, { property: 'head', operator, value })?.verdict).toBe('breaks');
  });

  it('a rule on a calculation written for identifiers (`index("qa")`) matches what it matched before: unaffected', () => {
    expect(judgedRule('.team | index("qa") != null', { property: 'head', operator: '=', value: true })?.verdict ?? 'unaffected').toBe('unaffected');
  });

  it('the same rule on a calculation written for titles breaks', () => {
    expect(judgedRule('.team | index("QA") != null', { property: 'head', operator: '=', value: true })?.verdict).toBe('breaks');
  });

  it('before the migration the same rule breaks until it runs', () => {
    expect(judgedRule('.team[0] | split("_")[0]', { property: 'head', operator: '=', value: 'data' }, false)?.verdict).toBe('breaks');
  });
});
