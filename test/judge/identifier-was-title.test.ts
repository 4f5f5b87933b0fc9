/**
 * After the migration, a literal that is one team's identifier today and was another team's title
 * before it (teams "Platform" = `infra` and "infra" = `platform-eng`): `$team containsAny ["infra"]`
 * matched the entities of the team titled "infra" before the migration and matches those of
 * "Platform" now. Whether it was written for the identifier or left over from the title nothing
 * tells: review, naming both teams.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { MIGRATED_ORGANIZATION, org } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';
const TEAMS = [
  { name: 'Platform', identifier: 'infra' },
  { name: 'infra', identifier: 'platform-eng' },
  { name: 'QA', identifier: 'qa' },
];
const USERS = [
  { email: 'ana@example.com', teams: [{ name: 'Platform' }] },
  { email: 'bo@example.com', teams: [{ name: 'infra' }] },
];

const judgedIn = (value: JsonValue) => {
  const report = analyze(
    buildCatalog(
      org({
        organization: MIGRATED_ORGANIZATION,
        users: USERS,
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ownership: { type: 'Direct' } }],
        entities: { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.identifier] })) },
        pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value }] } } } } }] }],
      }, TEAMS),
      { jq },
    ),
  );
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION);
};

describe("a literal that is one team's identifier and another's title, after the migration", () => {
  it('is review, naming both teams', () => {
    const finding = judgedIn(['infra']);
    expect(finding?.verdict).toBe('review');
    expect(finding?.reason).toContain('"Platform"');
    expect(finding?.reason).toContain('"platform-eng"');
  });

  it("a literal that is only a team's identifier stays written for identifiers", () => {
    expect(judgedIn(['qa'])?.verdict).toBe('unaffected');
  });
});

/** The same org, its service blueprint computing this calculation from `$team`. */
const calculationJudged = (calculation: string) => {
  const report = analyze(
    buildCatalog(
      org({
        organization: MIGRATED_ORGANIZATION,
        users: USERS,
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ownership: { type: 'Direct' }, calculationProperties: { flag: { title: 'Flag', calculation, type: 'boolean' } } }],
        entities: { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.identifier] })) },
      }, TEAMS),
      { jq },
    ),
  );
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.evidence === calculation);
};

describe('the same literal in jq, after the migration', () => {
  it.each(['.team | index("infra") != null', '.team[0] == "infra"', 'any(.team[]; . == "infra")'])('%s is review, naming both teams', (calculation) => {
    const finding = calculationJudged(calculation);
    expect(finding?.verdict).toBe('review');
    expect(finding?.reason).toContain('"Platform"');
    expect(finding?.reason).toContain('"platform-eng"');
  });

  it("a literal that is only a team's identifier is written for identifiers", () => {
    expect(calculationJudged('.team | index("qa") != null')?.verdict ?? 'unaffected').toBe('unaffected');
  });

  it('a title that is no identifier still breaks', () => {
    expect(calculationJudged('.team | index("QA") != null')?.verdict).toBe('breaks');
  });
});
