/**
 * The one user model per world (docs/decision-table.md, "The user in each world"): `.user` as
 * action jq sees it, before the migration and after it. Every place that builds a user for jq
 * goes through here or through `USER_MODEL_JQ`, which builds the same object inside jq:
 *
 * - `.user.team`: the user's teams as `$team` holds them: titles before, identifiers after (the
 *   migration guide rewrote `.user.team | contains(["My Team"])` to `["my_team"]`);
 * - `.user.teams`: `{name, provider}` objects whose names are the team NAMES (titles) in both
 *   worlds (`GET /v1/users` lists names even after the migration; the guide replaced
 *   `[.user.teams[].name]` with `[.user.teamsIdentifiers[]]` for that reason);
 * - `.user.teamsIdentifiers`: team values; after the migration the identifiers. What it held before
 *   is not documented, so it follows `$team` there too.
 */
import type { JsonObject, JsonValue } from '../model/json.js';

export type World = 'before' | 'after';

/**
 * What `provider` holds in a user's `teams` objects. The service names where the team comes from
 * (Port, an SSO provider); no public source fixes the value, and only its presence matters here:
 * an object `{name}` written in a condition never equals a team object.
 */
export const TEAM_PROVIDER = 'port';

/** `.user` from its teams' values in one world (titles before, identifiers after) and their names. */
export function userObject(values: readonly string[], names: readonly string[], extra: { email?: string; roles?: readonly string[] } = {}): JsonObject {
  const user: JsonObject = {
    email: extra.email ?? 'someone@example.com',
    team: [...values],
    teams: names.map((name) => ({ name, provider: TEAM_PROVIDER })),
    teamsIdentifiers: [...values],
  };
  if (extra.roles) user.roles = extra.roles.map((name) => ({ name }));
  return user;
}

/** `.user` in one world, from teams known by title and identifier. */
export function userInWorld(teams: readonly { title: string; identifier: string }[], world: World, extra: { email?: string; roles?: readonly string[] } = {}): JsonObject {
  return userObject(
    teams.map((team) => (world === 'before' ? team.title : team.identifier)),
    teams.map((team) => team.title),
    extra,
  );
}

/** A run's `.trigger` as the service's docs show a run's payload: who ran it (ids, email, names: no team values), where, when. */
export const RUN_TRIGGER: JsonObject = { by: { orgId: 'org_sample', userId: 'user_sample', user: { email: 'someone@example.com', firstName: 'Sample', lastName: 'User', id: 'user_sample' } }, origin: 'UI', at: '2024-01-01T00:00:00.000Z' };

/**
 * The same user built inside jq from a compact `[values, email | null, roles | null, names]`, so
 * thousands of people are sent as small arrays (src/access). The result binds `$user` and is the
 * context a condition sees: `.user`, and the run's `.trigger.by.user` / `.trigger.user`.
 */
export const USER_MODEL_JQ =
  `({team: .[0], teamsIdentifiers: .[0], teams: (.[3] | map({name: ., provider: ${JSON.stringify(TEAM_PROVIDER)}}))}` +
  ' + (if .[1] == null then {} else {email: .[1]} end) + (if .[2] == null then {} else {roles: (.[2] | map({name: .}))} end)) as $user' +
  ' | {user: $user, trigger: {by: {user: $user}, user: $user}}';

/** The compact form `USER_MODEL_JQ` reads. */
export function compactUser(values: readonly string[], names: readonly string[], email: string | null, roles: readonly string[] | null): JsonValue {
  return [[...values], email, roles === null ? null : [...roles], [...names]];
}
