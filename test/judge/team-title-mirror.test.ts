/**
 * Held-out check: a mirror of `$title` over a relation to `_team` (`owning_team.$title`) holds the
 * team's title in both worlds; the org declares it and holds the `_team` entities, so an
 * expression reading it is run with it filled, not called "reads values no context can know".
 * Each expected class is computed here in jq on an entity of each team: `$team` titles before and
 * identifiers after, the mirror its team's title in both.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, migrationPart, org, serviceRelatedToTeam, TEAMS, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();

const snapshot = (calculation: string, visible: string) =>
  org({
    ...migrationPart(true),
    blueprints: [
      serviceRelatedToTeam('owning_team', { owning_team_title: 'owning_team.$title' }, { calculationProperties: { flag: { title: 'Flag', type: 'boolean', calculation } } }),
      { identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} },
    ],
    entities: { _team: TEAMS.map((t) => ({ identifier: t.identifier, title: t.name })) },
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { gate: { type: 'boolean', visible: { jqQuery: visible } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

const entityOf = (team: (typeof TEAMS)[number] | undefined, world: 'before' | 'after'): JsonValue => ({
  identifier: 'e1',
  title: 'e1',
  team: team ? [world === 'before' ? team.name : team.identifier] : [],
  properties: { owning_team_title: team?.name ?? null },
  relations: { owning_team: team?.identifier ?? null },
});
const userOf = (team: (typeof TEAMS)[number] | undefined, world: 'before' | 'after'): JsonValue => ({
  email: 'someone@example.com',
  team: team ? [world === 'before' ? team.name : team.identifier] : [],
  teams: team ? [{ name: team.name }] : [],
});
const out = (input: JsonValue, expression: string) => JSON.stringify(jq.evaluate(input, expression));

/** The class by running it on an entity (and, for an input, a user) of each team, in both worlds. */
function expected(expression: string, kind: 'entity' | 'user-input'): ExpectedClass {
  const teams = [...TEAMS, undefined];
  const input = (team: (typeof TEAMS)[number] | undefined, world: 'before' | 'after') => (kind === 'entity' ? entityOf(team, world) : { entity: entityOf(team, world), user: userOf(team, world) });
  return teams.some((team) => out(input(team, 'before'), expression) !== out(input(team, 'after'), expression)) ? 'changed' : 'same';
}

const NEUTRAL_CALC = '.properties.owning_team_title != null';
const NEUTRAL_GATE = 'true';
const CALC = 'calculationProperties.flag.calculation';
const GATE = 'trigger.userInputs.properties.gate.visible.jqQuery';

describe('a mirror of _team titles read with team values, in a migrated org', () => {
  it.each([
    ['.properties.owning_team_title as $t | (.team | index([$t])) != null'],
    ['.properties.owning_team_title as $t | ([.team[] | select(. == $t)] | length) > 0 or (.team | length == 0)'],
    ['(.properties.owning_team_title != null) and (.team | length > 0)'],
    // No literal: a case fold on both sides sets teams apart only where identifier and title differ
    // beyond case, which is no sign of code written for identifiers.
    ['.properties.owning_team_title as $t | (.team[0] // "") | ascii_downcase == ($t // "" | ascii_downcase)'],
  ])('calculation %s is judged by running it with the mirror filled', (calculation) => {
    const { finding } = judged(jq, snapshot(calculation, NEUTRAL_GATE), CALC);
    expect(finding.reason).not.toContain('no context');
    expect(finding.verdict).toBe(expected(calculation, 'entity') === 'changed' ? 'breaks' : 'unaffected');
  });

  it.each([
    ['.entity.properties.owning_team_title as $o | (.user.team | index($o)) != null'],
    ['.entity.properties.owning_team_title as $o | ([.user.teams[].name] | index($o)) != null'],
  ])('input visible %s is judged by running it with the mirror filled', (visible) => {
    const { finding } = judged(jq, snapshot(NEUTRAL_CALC, visible), GATE);
    expect(finding.reason).not.toContain('no context');
    expect(finding.verdict).toBe(expected(visible, 'user-input') === 'changed' ? 'breaks' : 'unaffected');
  });

  it('the rows show both classes', () => {
    expect(expected('.properties.owning_team_title as $t | (.team | index([$t])) != null', 'entity')).toBe('changed');
    expect(expected('.entity.properties.owning_team_title as $o | ([.user.teams[].name] | index($o)) != null', 'user-input')).toBe('same');
  });
});
