/**
 * Issue 29, class 8: values the service fills in a `$team` rule itself ("My Teams", `{context:
 * "userTeams", property: ...}`, `{context: "user", property: "$team"}`, `{{getUserTeams()}}`). What
 * each stands for in each world is written here from the service's docs, independently of
 * src/judge/built-in-values.ts; the expected class is computed by matching in jq, for every user,
 * against an entity of every team set; docs/decision-table.md lists every built-in the code knows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { BUILT_IN_VALUES } from '../../src/judge/built-in-values.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedComputedRuleClass, expectedVerdict, migrationPart, org, SERVICES_PER_TEAM, teamValuesIn, TEAMS, type ExpectedClass, type World } from './two-worlds.js';

const jq = useJqEngine();

const identifierOf = new Map(TEAMS.map((t) => [t.name, t.identifier]));

interface BuiltInRow {
  name: string;
  value: JsonValue;
  operator: string;
  /** What the docs say it stands for, for a user of these teams (titles) in one world. */
  meaning: (titles: readonly string[], world: World) => string[];
  shows: ExpectedClass;
}

const ROWS: BuiltInRow[] = [
  { name: '"My Teams": the viewer\'s teams as $team holds them', value: ['My Teams'], operator: 'in', meaning: (titles, world) => teamValuesIn(titles, world), shows: 'same' },
  { name: 'userTeams $identifier: identifiers, which $team holds only after', value: { context: 'userTeams', property: '$identifier' }, operator: 'containsAny', meaning: (titles) => titles.map((t) => identifierOf.get(t)!), shows: 'changed' },
  { name: 'userTeams $title: titles, which $team holds only before', value: { context: 'userTeams', property: '$title' }, operator: 'containsAny', meaning: (titles) => [...titles], shows: 'changed' },
  { name: 'user $team: the user\'s teams as $team holds them', value: { context: 'user', property: '$team' }, operator: 'containsAny', meaning: (titles, world) => teamValuesIn(titles, world), shows: 'same' },
  { name: '"My Teams" with containsAny', value: ['My Teams'], operator: 'containsAny', meaning: (titles, world) => teamValuesIn(titles, world), shows: 'same' },
  { name: '"My Teams" excluded with notIn', value: ['My Teams'], operator: 'notIn', meaning: (titles, world) => teamValuesIn(titles, world), shows: 'same' },
  { name: '{{getUserTeams()}}: the user\'s teams as $team holds them', value: '{{getUserTeams()}}', operator: 'containsAny', meaning: (titles, world) => teamValuesIn(titles, world), shows: 'same' },
  { name: 'userTeams $identifier with in', value: { context: 'userTeams', property: '$identifier' }, operator: 'in', meaning: (titles) => titles.map((t) => identifierOf.get(t)!), shows: 'changed' },
];

const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';

const page = (rule: JsonObject, migrated = false) =>
  org({
    ...migrationPart(migrated),
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES_PER_TEAM },
    pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [rule] } } } } }] }],
  });

const at = (rule: JsonObject, migrated = false) => {
  const report = analyze(buildCatalog(page(rule, migrated), { jq }));
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION);
};

/** The same rule where a dashboard widget holds it rather than a table filter: a number chart's dataset, a chart's filters. */
const WIDGET_SITES: { name: string; widget: (rule: JsonObject) => JsonObject; location: string }[] = [
  { name: 'a number chart\'s dataset', widget: (rule) => ({ id: 'w1', type: 'entities-number-chart', blueprint: 'service', dataset: { combinator: 'and', rules: [rule] } }), location: 'widgets[0].dataset.rules[0]' },
  { name: 'a pie chart\'s filters', widget: (rule) => ({ id: 'w1', type: 'entities-pie-chart', blueprint: 'service', chartFilters: { combinator: 'and', rules: [rule] } }), location: 'widgets[0].chartFilters.rules[0]' },
];

const atWidget = (site: (typeof WIDGET_SITES)[number], rule: JsonObject) => {
  const snapshot = page(rule);
  snapshot.pages = [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [site.widget(rule)] }] as never;
  const report = analyze(buildCatalog(snapshot, { jq }));
  return { report, finding: [...report.findings, ...(report.verified ?? [])].find((f) => f.location === site.location) };
};

describe('built-in values: (rule, teams, entities) → (class, verdict)', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const klass = expectedComputedRuleClass(jq, row.operator, row.meaning);
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const finding = at({ property: '$team', operator: row.operator, value: row.value });
      // A built-in that follows the teams is no finding, as before; one that changes is judged.
      expect(finding?.verdict ?? 'unaffected').toBe(expectedVerdict(klass, 'team-comparison'));
    });
  }

  for (const site of WIDGET_SITES) {
    for (const row of ROWS) {
      it(`${site.name}: ${row.name}`, () => {
        const klass = expectedComputedRuleClass(jq, row.operator, row.meaning);
        const { report, finding } = atWidget(site, { property: '$team', operator: row.operator, value: row.value });
        expect(finding?.verdict ?? 'unaffected').toBe(expectedVerdict(klass, 'team-comparison'));
        // A rule that changes is found where the widget holds it, never dropped.
        if (klass === 'changed') expect(report.findings.some((f) => f.location === site.location)).toBe(true);
      });
    }
  }

  it('userTeams $identifier is written for identifiers: apply it with the migration, and right once migrated', () => {
    const rule = { property: '$team', operator: 'containsAny', value: { context: 'userTeams', property: '$identifier' } };
    expect(at(rule)?.suggestion).toContain('apply it with the migration');
    expect(at(rule, true)?.verdict ?? 'unaffected').toBe('unaffected');
  });

  it('userTeams $title stays broken once migrated', () => {
    expect(at({ property: '$team', operator: 'containsAny', value: { context: 'userTeams', property: '$title' } }, true)?.verdict).toBe('breaks');
  });

  it('a context property this tool does not hold is for a person to check', () => {
    expect(at({ property: '$team', operator: 'containsAny', value: { context: 'userTeams', property: 'region' } })?.verdict).toBe('review');
  });
});

describe('the table of built-in values', () => {
  it('docs/decision-table.md lists every built-in value the judge knows, with its meaning before and after', () => {
    const docs = readFileSync('docs/decision-table.md', 'utf8');
    for (const builtIn of Object.values(BUILT_IN_VALUES)) {
      const line = docs.split('\n').find((l) => l.includes(builtIn.form.replaceAll('|', '\\|')));
      expect(line, builtIn.form).toBeDefined();
      expect(line).toContain(builtIn.before);
      expect(line).toContain(builtIn.after);
    }
  });
});
