/**
 * Issue 39: after the migration, judge what works today. A `$team` rule value that no team of the
 * org holds today, neither as identifier nor as title, matches nothing now, whatever it matched
 * before: it breaks, naming the teams it could have meant. A value a team holds stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { MIGRATED_ORGANIZATION, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';

/** A migrated org: its services hold identifiers; the widget filters them by `value`. */
const judgedIn = (migrated: boolean, value: JsonValue) => {
  const report = analyze(
    buildCatalog(
      org({
        ...(migrated && { organization: MIGRATED_ORGANIZATION }),
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...(migrated && { ownership: { type: 'Direct' } }) }],
        entities: { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [migrated ? team.identifier : team.name] })) },
        pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value }] } } } } }] }],
      }),
      { jq },
    ),
  );
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION);
};

describe('a team value no team holds today, after the migration (issue 39)', () => {
  it('breaks and names the teams it could have meant', () => {
    const finding = judgedIn(true, ['data-science']);
    expect(finding?.verdict).toBe('breaks');
    expect(finding?.reason).toContain('"data-science" is no team of the org today');
    expect(finding?.suggestion).toContain('"data_science" (Data Science)');
  });

  it('a value a team holds today is judged as before', () => {
    expect(judgedIn(true, ['data_science'])?.verdict).toBe('unaffected');
  });

  it('before the migration the same value is left to the rest of the judge', () => {
    expect(judgedIn(false, ['data-science'])?.reason ?? '').not.toContain('is no team of the org today');
  });
});
