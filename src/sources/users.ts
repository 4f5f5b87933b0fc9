import { ApiShapeError, type ApiClient } from '../api/client.js';
import { trimUser } from '../access/users.js';
import type { UserRecord } from '../model/access.js';
import { isObject, type JsonObject } from '../model/json.js';
import type { TeamRecord } from '../model/snapshot.js';

/**
 * `GET /v1/users` asks the service for three fields only (its `fields` query parameter, repeated):
 * who a user is for the report (email), their teams (the titles a team condition compares) and
 * their roles (an admin holds every permission). Names, pictures and the rest are never asked for,
 * and if a service sends them anyway they are cut here, before anything is kept.
 */
export const USERS_PATH = '/v1/users?fields=email&fields=teams.name&fields=roles.name';

/**
 * `GET /v1/teams` without `fields`: its `fields` list (docs/live-service.md) has no `identifier`,
 * which the service sends once teams have one (the Terraform provider reads it), so asking for
 * fields would lose it. Each team's `users` (every membership, in this one read) are cut to their
 * emails as the answer arrives (`trimTeams`); names and pictures of members are never kept.
 */
export const TEAMS_PATH = '/v1/teams';

/** What one `GET /v1/users` answered: the users, and whether it carried their teams at all. */
export interface UsersRead {
  users: UserRecord[];
  /** No user in the answer has `teams` (a token or an older service without the field). */
  withoutTeams: boolean;
}

export async function fetchUsers(client: ApiClient): Promise<UsersRead> {
  const payload = await client.get(USERS_PATH, 'users');
  if (!Array.isArray(payload)) throw new ApiShapeError('users: expected an array');
  const withoutTeams = payload.length > 0 && payload.every((user) => !isObject(user) || user.teams === undefined || user.teams === null);
  return { users: payload.map(trimUser).filter((user): user is UserRecord => user !== undefined), withoutTeams };
}

/** The teams list as kept (docs/formats.md: `{id?, name, identifier?, description?}`), and who is in each team. */
export interface TeamsRead {
  teams: TeamRecord[];
  /** Email → the names of the teams that list the user; undefined when no team carried `users`. */
  members?: Map<string, string[]>;
}

const KEPT_TEAM_FIELDS = ['id', 'name', 'identifier', 'description'] as const;

/** Cut each team to what the contract keeps, reading its members' emails on the way. */
export function trimTeams(teams: readonly JsonObject[]): TeamsRead {
  let members: Map<string, string[]> | undefined;
  const kept = teams.map((team) => {
    const record: JsonObject = {};
    for (const key of KEPT_TEAM_FIELDS) if (team[key] !== undefined) record[key] = team[key];
    if (Array.isArray(team.users) && typeof team.name === 'string') {
      members ??= new Map();
      for (const user of team.users) {
        if (!isObject(user) || typeof user.email !== 'string') continue;
        const held = members.get(user.email) ?? [];
        if (!held.includes(team.name)) held.push(team.name);
        members.set(user.email, held);
      }
    }
    // A team without a name stays, so the checks note it as a recording would (validate-snapshot.ts).
    return record as TeamRecord;
  });
  return members ? { teams: kept, members } : { teams: kept };
}

/** Each user's teams from the teams' members, in the service's `{name}` form; users no team lists hold none. */
export function withTeamsFromMembers(users: readonly UserRecord[], members: ReadonlyMap<string, readonly string[]>): UserRecord[] {
  return users.map((user) => ({ ...user, teams: (members.get(user.email) ?? []).map((name) => ({ name })) }));
}
