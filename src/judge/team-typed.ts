/**
 * Team-typed inputs of a self-service action (issue 29): an input of `format: team` holds teams,
 * an entity input of the `_team` blueprint holds a team entity, one of `_user` holds a user whose
 * `.team` is that user's teams. What they hold is a team value: a title before the migration and
 * an identifier after it. Their `default` is judged as a team value (a set of teams), and other
 * jq of the form that reads them (`.form.<input>`) reads team values. (What a run passes on from
 * them, `.inputs.<input>`, is the value the user picked: passed on, not compared; issue 22.)
 */
import { isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { World } from './user-model.js';

import type { TeamInput, TeamInputKind } from '../model/sites.js';
export type { TeamInput, TeamInputKind };

/** The team type of one input definition (`{type, format, blueprint, items}`), if it has one. */
export function teamInputOf(definition: JsonObject): TeamInput | undefined {
  const many = definition.type === 'array';
  const typed = many && isObject(definition.items) ? definition.items : definition;
  if (typed.format === 'team') return { kind: 'team', many };
  if (typed.format === 'entity' && (typed.blueprint === '_team' || typed.blueprint === '_user')) return { kind: typed.blueprint, many };
  return undefined;
}

/** Every team-typed input of a form's `properties`, by name. */
export function teamInputsOf(properties: JsonValue | undefined): ReadonlyMap<string, TeamInput> {
  const inputs = new Map<string, TeamInput>();
  if (!isObject(properties)) return inputs;
  for (const [name, definition] of Object.entries(properties)) {
    if (!isObject(definition)) continue;
    const typed = teamInputOf(definition);
    if (typed) inputs.set(name, typed);
  }
  return inputs;
}

/**
 * What the input holds in one world, for the teams given: team values for `format: team`; the
 * `_team` entity (its identifier and title do not change; read back, its identifier stands as the
 * title before the migration); a `_user` entity whose `team` holds team values.
 */
export function teamInputValue(input: TeamInput, teams: readonly { title: string; identifier: string }[], world: World, readBack = false): JsonValue {
  const value = (team: { title: string; identifier: string }): JsonValue => {
    if (input.kind === 'team') return world === 'before' ? team.title : team.identifier;
    // Read back (is it written for identifiers?): the entity's identifier as the title `$team` holds before.
    if (input.kind === '_team') return { identifier: readBack && world === 'before' ? team.title : team.identifier, title: team.title };
    return { identifier: 'someone@example.com', title: 'Someone', team: teams.map((t) => (world === 'before' ? t.title : t.identifier)) };
  };
  if (input.many) return input.kind === '_user' ? (teams.length > 0 ? [value(teams[0]!)] : []) : teams.map(value);
  const first = teams[0];
  if (first === undefined) return input.kind === '_user' ? value({ title: '', identifier: '' }) : null;
  return value(first);
}
