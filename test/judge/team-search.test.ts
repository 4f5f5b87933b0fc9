/**
 * Issue 29, class 5: a mapping's team given as a search over `_team` entities. By `$title` it
 * finds teams by title, which a team keeps: it works while the source holds titles (no finding);
 * by `$identifier` the source must hold identifiers. Where the value is a literal or a template
 * this tool can run, whether it finds a team after the migration is computed here in jq: the
 * value run with each user, matched against every team's title or identifier.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedRuleClass, inputOf, judged, migrationPart, org, TEAM_SETS, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

const integration = (team: JsonObject) =>
  org({ integrations: [{ installationId: 'pd', integrationType: 'pagerduty', config: { resources: [{ kind: 'services', port: { entity: { mappings: { identifier: '.id', blueprint: '"service"', team } } } }] } }] });

const upsert = (team: JsonObject) =>
  org({
    actions: [
      {
        identifier: 'create',
        title: 'Create',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team } },
      },
    ],
  });

const search = (property: string, value: unknown, operator = '='): JsonObject => ({ combinator: 'and', rules: [{ property, operator, value }] }) as JsonObject;

/** Whether the value, run after the migration for every user with teams, finds a team by `field` (computed in jq). */
function findsATeamAfter(expression: string, field: '$title' | '$identifier'): boolean {
  const fieldOf = (team: (typeof TEAMS)[number]) => (field === '$title' ? team.name : team.identifier);
  return TEAM_SETS.filter((set) => set.length > 0).every((set) => {
    const result = jq.evaluate(inputOf('action-run', set, 'after'), expression);
    const values = result.ok ? result.values.flat() : [];
    return TEAMS.some((team) => values.includes(fieldOf(team)));
  });
}

describe('team search from the source: (field) → verdict', () => {
  it('by $title: keeps working while the source holds titles, so it is no finding (verified)', () => {
    const report = analyze(buildCatalog(integration(search('$title', '.team.name')), { jq }));
    expect(report.findings).toEqual([]);
    const checked = report.verified?.find((f) => f.location.endsWith('team.rules[0]'));
    expect(checked?.reason).toContain('keeps working while the source holds titles');
  });

  it('by $title with in over a list the source sends: no finding either', () => {
    const report = analyze(buildCatalog(integration(search('$title', '[.teams[].name]', 'in')), { jq }));
    expect(report.findings).toEqual([]);
  });

  it("as an integration writes it (the query's fields as jq string literals), it is the same search: by $title no finding, by $identifier a review", () => {
    const written = (field: string) => ({ combinator: '"and"', rules: [{ property: `"${field}"`, operator: '"="', value: '.team.name' }] }) as JsonObject;
    expect(analyze(buildCatalog(integration(written('$title')), { jq })).findings).toEqual([]);
    const { finding } = judged(jq, integration(written('$identifier')), 'config.resources[0].port.entity.mappings.team.rules[0]');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('must hold team identifiers');
  });

  it('by $identifier: the source must hold identifiers, so a person checks it', () => {
    const { finding } = judged(jq, integration(search('$identifier', '.team.name')), 'config.resources[0].port.entity.mappings.team.rules[0]');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('must hold team identifiers');
  });
});

describe('team search with a literal or a template: (field, value, teams) → verdict', () => {
  const ROWS: { name: string; field: '$title' | '$identifier'; template: string; operator?: string }[] = [
    { name: 'by $title with in, the runner\'s team names by map(.name)', field: '$title', template: '.trigger.by.user.teams | map(.name)', operator: 'in' },
    { name: 'by $identifier with in, the runner\'s team names by map(.name)', field: '$identifier', template: '.trigger.by.user.teams | map(.name)', operator: 'in' },
    { name: 'by $identifier with in, the entity\'s teams', field: '$identifier', template: '.entity.team', operator: 'in' },
    { name: 'by $identifier, the runner\'s team values', field: '$identifier', template: '.trigger.by.user.team' },
    { name: 'by $title, the runner\'s team names', field: '$title', template: '[.trigger.by.user.teams[].name]' },
    { name: 'by $title, the runner\'s team values', field: '$title', template: '.trigger.by.user.team' },
    { name: 'by $identifier, the runner\'s team names', field: '$identifier', template: '[.trigger.by.user.teams[].name]' },
  ];
  for (const row of ROWS) {
    it(row.name, () => {
      const finds = findsATeamAfter(row.template, row.field);
      const { finding } = judged(jq, upsert(search(row.field, `{{ ${row.template} }}`, row.operator)), 'invocationMethod.mapping.team.rules[0]');
      expect(finding.verdict).toBe(finds ? 'unaffected' : 'breaks');
    });
  }

  it('a title literal by $identifier finds no team: breaks, with a search by $title as rewrite', () => {
    const { finding } = judged(jq, upsert(search('$identifier', 'Data Science')), 'invocationMethod.mapping.team.rules[0]');
    expect(TEAMS.some((t) => t.identifier === 'Data Science')).toBe(false);
    expect(finding.verdict).toBe('breaks');
    expect(JSON.parse(finding.rewrite!)).toMatchObject({ property: '$title', value: 'Data Science' });
  });

  it('a title literal by $title finds its team: no finding', () => {
    const report = analyze(buildCatalog(upsert(search('$title', 'Data Science')), { jq }));
    expect(report.findings.filter((f) => f.location.startsWith('invocationMethod.mapping.team'))).toEqual([]);
  });
});

// Issue 39: a team search whose value holds nothing (null, []) was dropped without a word. Whether
// it finds a team is computed in jq: the rule matched, with no values, against every team's field.
describe('a team search with no value is judged, never dropped', () => {
  for (const [operator, value] of [['=', null], ['in', []], ['!=', null]] as const) {
    it(`$identifier ${operator} ${JSON.stringify(value)}`, () => {
      const findsOne = TEAMS.some((team) => expectedRuleClass.match(jq, operator, [team.identifier], []));
      const { finding } = judged(jq, upsert(search('$identifier', value, operator)), 'invocationMethod.mapping.team.rules[0]');
      expect(finding.verdict).toBe(findsOne ? 'unaffected' : 'breaks');
    });
  }
});

// Held-out m1: in a migrated org, an integration's team search by $identifier whose value is jq that is
// one string literal reads nothing of the payload: it is that literal. Whether it finds a team is
// computed in jq (the literal run, matched against every team's identifier); one that finds none breaks.
describe('team search by $identifier with a jq string literal, migrated org', () => {
  const migrated = (value: string) => ({ ...integration({ combinator: '"and"', rules: [{ property: '"$identifier"', operator: '"="', value }] }), ...migrationPart(true) });
  it.each(['"qa"', '"QA"', '"data_science"', '"Data Science"'])('value %s: no finding when jq finds a team by it, else breaks', (value) => {
    const finds = findsATeamAfter(value, '$identifier');
    const report = analyze(buildCatalog(migrated(value), { jq }));
    const finding = report.findings.find((f) => f.location === 'config.resources[0].port.entity.mappings.team.rules[0]');
    // Found: nothing to do, and no review is left to the search as a whole either.
    if (finds) expect(report.findings).toEqual([]);
    else expect(finding?.verdict).toBe('breaks');
  });
});
