import { ApiShapeError, type ApiClient } from '../api/client.js';
import { trimUser } from '../access/users.js';
import type { UserRecord } from '../model/access.js';

/**
 * `GET /v1/users` asks the service for three fields only (its `fields` query parameter, repeated):
 * who a user is for the report (email), their teams (the titles a team condition compares) and
 * their roles (an admin holds every permission). Names, pictures and the rest are never asked for,
 * and if a service sends them anyway they are cut here, before anything is kept.
 */
export const USERS_PATH = '/v1/users?fields=email&fields=teams.name&fields=roles.name';

export async function fetchUsers(client: ApiClient): Promise<UserRecord[]> {
  const payload = await client.get(USERS_PATH, 'users');
  if (!Array.isArray(payload)) throw new ApiShapeError('users: expected an array');
  return payload.map(trimUser).filter((user): user is UserRecord => user !== undefined);
}
