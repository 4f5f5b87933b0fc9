/**
 * Issue 39: a dataset rule whose value reads the action's entity (`{"jqQuery":
 * ".entity.properties.owner_title"}`, a mirror of the `$title` of a relation to `_team`) compared
 * with `$team` of the offered entities. The mirror holds titles in both worlds, `$team` titles
 * before the migration and identifiers after it: the rule matched the entities of the related
 * team and matches nobody after. Both sides are evaluated in each world.
 */
import { describe, expect, it } from 'vitest';
import { day2Action } from '../support/day2-action.js';
import { useJqEngine } from '../support/jq-engine.js';
import { inputOf, judged, migrationPart, org, serviceRelatedToTeam, TEAMS, type World } from './two-worlds.js';
import type { JsonObject } from '../../src/model/json.js';

const jq = useJqEngine();

const LOCATION = 'trigger.userInputs.properties.target.dataset.rules[0].value.jqQuery';

/** Services each owned by a team and related to it over `owner` (identifiers in both worlds), with mirrors of its title and identifier. */
const SERVICES = TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name], relations: { owner: team.identifier } }));

function mirrorOrg(jqQuery: string, migrated = false) {
  return org({
    ...migrationPart(migrated),
    blueprints: [
      serviceRelatedToTeam('owner', { owner_title: 'owner.$title', owner_id: 'owner.$identifier' }),
    ],
    entities: { service: migrated ? SERVICES.map((service, i) => ({ ...service, team: [TEAMS[i]!.identifier] })) : SERVICES },
    actions: [
      day2Action({ target: { type: 'string', format: 'entity', blueprint: 'service', dataset: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: { jqQuery } }] } } }),
    ],
  });
}

/**
 * Per service the action runs on, in one world: the offered services the rule matches, by running
 * the value's jq on that service (its mirrors as the service computes them) and comparing with
 * each offered service's `$team` in that world.
 */
function matched(jqQuery: string, world: World): string[][] {
  return SERVICES.map((service) => {
    const team = TEAMS.find((t) => t.identifier === service.relations.owner)!;
    const entity = { ...(inputOf('entity', service.team, world) as JsonObject), properties: { owner_title: team.name, owner_id: team.identifier } };
    const result = jq.evaluate({ user: {}, entity, form: {} }, jqQuery);
    const value = result.ok ? result.values[0] : undefined;
    return SERVICES.filter((offered) => (inputOf('entity', offered.team, world) as { team: string[] }).team.includes(value as string)).map((offered) => offered.identifier);
  });
}

describe('a dataset rule comparing $team with a value read from the action\'s entity', () => {
  it('a mirror of the related team\'s title matched its services and matches nobody after the migration: breaks', () => {
    const query = '.entity.properties.owner_title';
    expect(matched(query, 'before').every((services) => services.length === 1)).toBe(true);
    expect(matched(query, 'after').every((services) => services.length === 0)).toBe(true);
    expect(judged(jq, mirrorOrg(query), LOCATION).finding.verdict).toBe('breaks');
    // Migrated, the org's entities hold identifiers: the title it gives matches nobody today.
    expect(judged(jq, mirrorOrg(query, true), LOCATION).finding.verdict).toBe('breaks');
  });

  it('the entity\'s own $team follows the migration on both sides: it does not break', () => {
    const query = '.entity.team[0]';
    expect(matched(query, 'after')).toEqual(matched(query, 'before'));
    expect(judged(jq, mirrorOrg(query), LOCATION).finding.verdict).not.toBe('breaks');
    expect(judged(jq, mirrorOrg(query, true), LOCATION).finding.verdict).not.toBe('breaks');
  });

  it('a mirror of the related team\'s identifier matches its services after the migration: it does not break', () => {
    const query = '.entity.properties.owner_id';
    expect(matched(query, 'after').every((services) => services.length === 1)).toBe(true);
    expect(judged(jq, mirrorOrg(query, true), LOCATION).finding.verdict).not.toBe('breaks');
  });
});
