/**
 * Issue 39, held-out miss (m5): an integration's `team` that is jq reading nothing of the payload
 * (`"RGF0YSBTY2llbmNl" | @base64d`, "Data Science") sets the same team whatever the source sends,
 * yet it got only the generic review ("not run"). jq gives the value on any payload; that value is
 * judged as a literal team value is: a title breaks once `$team` holds identifiers, an identifier
 * is right in a migrated org. A `team` that reads the payload stays for review.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, migrationPart, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'config.resources[0].port.entity.mappings.team';
const integration = (team: string, migrated: boolean) =>
  org({
    ...migrationPart(migrated),
    integrations: [{ installationId: 'pd', integrationType: 'pagerduty', config: { resources: [{ kind: 'services', port: { entity: { mappings: { identifier: '.id', blueprint: '"service"', team } } } }] } }],
  });

/** What the source's payload cannot change: the value on two payloads that share nothing, when both give it. */
function constant(expression: string): string | undefined {
  const a = jq.evaluate({}, expression);
  const b = jq.evaluate({ team: 'x', owner: 'y', id: 'z' }, expression);
  return a.ok && b.ok && JSON.stringify(a.values) === JSON.stringify(b.values) && typeof a.values[0] === 'string' ? a.values[0] : undefined;
}

describe("an integration's team that reads nothing of its payload", () => {
  it.each([
    ['"RGF0YSBTY2llbmNl" | @base64d', false, 'breaks'],
    ['"RGF0YSBTY2llbmNl" | @base64d', true, 'breaks'],
    ['"ZGF0YV9zY2llbmNl" | @base64d', true, 'unaffected'],
  ] as const)('%s (migrated: %s)', (expression, migrated, verdict) => {
    const value = constant(expression);
    const team = TEAMS.find((t) => t.name === value || t.identifier === value);
    // A title sets a team the migrated org no longer holds by that value; an identifier of a migrated org is right.
    expect(team !== undefined && (value === team.name ? 'breaks' : migrated ? 'unaffected' : 'breaks')).toBe(verdict);
    expect(judged(jq, integration(expression, migrated), LOCATION).finding.verdict).toBe(verdict);
  });

  it('a team read from the payload is still for review', () => {
    expect(constant('.owner')).toBeUndefined();
    expect(judged(jq, integration('.owner', true), LOCATION).finding.verdict).toBe('review');
  });
});
