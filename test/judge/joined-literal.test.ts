/**
 * Issue 39: after the migration, a literal compared with team values that no team holds today is
 * the `no-team-holds` row. A literal joined to a team value (a path prefix before the team) is no
 * such literal: it is carried into the result whatever the team, and the reason says what running
 * shows, not that the prefix is no team of the org.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, MIGRATED_ORGANIZATION, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const GHOST = 'is no team of the org today';
const LOCATION = 'invocationMethod.body.path';

const migratedOrg = (expression: string) =>
  org({
    organization: MIGRATED_ORGANIZATION,
    blueprints: [{ identifier: 'service', title: 'Service', ownership: { type: 'Direct' }, schema: { properties: {} }, relations: {} }],
    entities: { service: TEAMS.map((team, i) => ({ identifier: `s${i}`, team: [team.identifier] })) },
    actions: [
      {
        identifier: 'notify',
        title: 'Notify',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x', body: { path: `{{ ${expression} }}` } },
      },
    ],
  });

/** What a run's template gives for an entity holding these teams. */
const run = (expression: string, team: string[]) => jq.evaluate({ entity: { identifier: 'e', team }, inputs: {}, trigger: { by: { user: {} } } }, expression);

describe('a literal joined to a team value', () => {
  const joined = '"/squads/" + (.entity.team[0] // "" | @uri)';
  it(`${joined}: the prefix is in every result, and the reason says what changes`, () => {
    // The prefix is carried into every result: it is never measured against a team.
    for (const team of TEAMS) expect(JSON.stringify(run(joined, [team.identifier]))).toContain('/squads/');
    // With a team whose title and identifier differ once encoded, the result changes with the migration.
    expect(run(joined, ['Data Science'])).not.toEqual(run(joined, ['data_science']));
    const { finding } = judged(jq, migratedOrg(joined), LOCATION);
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).not.toContain(GHOST);
    expect(finding.reason).toContain('its result changes with the migration');
  });

  const compared = '(.entity.team[0] // "") == "Squad Nine"';
  it(`${compared}: a literal compared with the team that no team holds is still no-team-holds`, () => {
    expect(TEAMS.every((team) => JSON.stringify(run(compared, [team.identifier])) === JSON.stringify(run(compared, [])))).toBe(true);
    const { finding } = judged(jq, migratedOrg(compared), LOCATION);
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain(`"Squad Nine" ${GHOST}`);
  });
});
