import { classifyTeamValue, type TeamDirectory } from '../catalog/teams.js';
import { isObject } from '../model/json.js';
import type { UserRecord } from '../model/access.js';

/** A user as the access computation reads them: team values in both forms, role names. */
export interface AccessUser {
  email: string;
  /** Team values while teams are titles (what the users API returns before the migration). */
  titles: string[];
  /** The same teams once they are identifiers. */
  identifiers: string[];
  roles: string[];
  /** Admins may run and approve every action whatever its permissions say. */
  admin: boolean;
}

/** The service's admin role: it holds every permission, so no change reaches it. */
const ADMIN_ROLE = 'Admin';

const nameOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : isObject(value) && typeof value.name === 'string' ? value.name : undefined;

const namesOf = (values: unknown): string[] => (Array.isArray(values) ? values.map(nameOf).filter((name): name is string => name !== undefined) : []);

/**
 * The snapshot's users (contracts.md §3.1), each with its teams in both forms. A record without an
 * email cannot be named in a report and is skipped; the same email twice is one user.
 */
export function accessUsers(users: readonly unknown[], teams: TeamDirectory): AccessUser[] {
  const byEmail = new Map<string, AccessUser>();
  for (const record of users) {
    if (!isObject(record) || typeof record.email !== 'string' || byEmail.has(record.email)) continue;
    const titles = namesOf(record.teams);
    const roles = namesOf(record.roles);
    byEmail.set(record.email, { email: record.email, titles, identifiers: titles.map((title) => teamIdentifier(teams, title)), roles, admin: roles.includes(ADMIN_ROLE) });
  }
  return [...byEmail.values()].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/**
 * The value a team holds once teams are identifiers. A title whose identifier is not known yet
 * gets a stand-in that equals no literal an expression can hold (identifiers are slugs, never
 * this): the migration assigns some identifier, and it is not the title. Explicit lists go through
 * the same function, so a list and a user's teams still meet where they met before.
 */
export function teamIdentifier(teams: TeamDirectory, value: string): string {
  const status = classifyTeamValue(teams, value);
  if (status.state === 'title') return status.identifier;
  if (status.state === 'title-unknown-identifier') return `<identifier of ${value}, not known yet>`;
  return value;
}

/**
 * Only what the contract allows of a user (contracts.md §3.1): the email, and teams and roles as
 * the service returns them (a name, or `{name}` with every other field of the team or role cut).
 */
export function trimUser(record: unknown): UserRecord | undefined {
  if (!isObject(record) || typeof record.email !== 'string') return undefined;
  const trimmed: UserRecord = { email: record.email, teams: namedOnly(record.teams) };
  if (Array.isArray(record.roles)) trimmed.roles = namedOnly(record.roles);
  return trimmed;
}

function namedOnly(values: unknown): (string | { name: string })[] {
  if (!Array.isArray(values)) return [];
  return values.flatMap((value): (string | { name: string })[] => (typeof value === 'string' ? [value] : isObject(value) && typeof value.name === 'string' ? [{ name: value.name }] : []));
}
