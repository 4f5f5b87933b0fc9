/**
 * Issue 39: a search rule on a relation to `_team` the migration keeps, or on a mirror of such a
 * relation's `$title`, whose value follows the user (`{context: "userTeams"}`, jq over the user's
 * team names or teams), is matched like any other rule: the relation holds `_team` identifiers in
 * both worlds and the mirror titles, while the value holds what its own world gives.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { migrationPart, org, serviceRelatedToTeam, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';

function judgedRule(migrated: boolean, property: string, value: JsonValue) {
  const report = analyze(
    buildCatalog(
      org({
        ...migrationPart(migrated),
        blueprints: [
          serviceRelatedToTeam('owning_team', { owning_team_title: 'owning_team.$title' }, migrated ? { ownership: { type: 'Direct' } } : {}),
          { identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} },
        ],
        entities: {
          _team: TEAMS.map((t) => ({ identifier: t.identifier, title: t.name })),
          service: TEAMS.map((t, i) => ({ identifier: `svc-${i}`, team: [migrated ? t.identifier : t.name], relations: { owning_team: t.identifier }, properties: { owning_team_title: t.name } })),
        },
        pages: [{ identifier: 'p', title: 'P', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property, operator: 'in', value }] } } } } }] }],
      }),
      { jq },
    ),
  );
  // A `{jqQuery}` value's finding names the expression's place.
  return [...report.findings, ...(report.verified ?? [])].filter((f) => f.location.startsWith(LOCATION));
}

describe.each([false, true])('a rule on a relation to _team or its $title mirror with a value that follows the user (migrated: %s)', (migrated) => {
  it.each([
    ['owning_team', { context: 'userTeams', property: '$identifier' }],
    ['owning_team_title', { context: 'userTeams', property: '$title' }],
    ['owning_team_title', { jqQuery: '[.user.teams[].name]' }],
  ])('%s in %j: the same teams on both sides in both worlds, not flagged', (property, value) => {
    expect(judgedRule(migrated, property, value).map((f) => f.verdict).filter((v) => v !== 'unaffected')).toEqual([]);
  });

  it.each([
    ['owning_team', { context: 'userTeams', property: '$title' }],
    ['owning_team', { jqQuery: '[.user.teams[].name]' }],
    ['owning_team_title', { context: 'userTeams', property: '$identifier' }],
  ])('%s in %j: titles met with identifiers match nobody: breaks once migrated, review before', (property, value) => {
    const findings = judgedRule(migrated, property, value);
    expect(findings.map((f) => f.verdict)).toEqual([migrated ? 'breaks' : 'review']);
    expect(findings[0]?.reason).toContain('matches no');
  });
});
