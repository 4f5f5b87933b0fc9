/**
 * The org's people, once per catalog (CONTRIBUTING.md, "One catalog for the org and for
 * repositories"): one record per email with the team NAMES `GET /v1/users` gives (titles, before
 * and after the migration), the same teams' identifiers and the roles. Identifiers come from the
 * `_user` entity's `team` where the org has one (after the migration that is where they live),
 * else from the names through the team directory. The judge and the access computation build
 * `.user` of each world from these (src/judge/user-model.ts); they never read `users` themselves.
 */
import { isObject } from '../model/json.js';
import { compareText } from '../compare-text.js';
import type { EntityRecord } from '../model/snapshot.js';
import { classifyTeamValue, type TeamDirectory } from './teams.js';

export interface Person {
  email: string;
  /** Team names as the users API lists them: the titles, in both worlds. */
  names: string[];
  /** The same teams as identifiers: what `$team` and `.user.team` hold after the migration. */
  identifiers: string[];
  /** Where `identifiers` came from: the person's `_user` entity, or the names through the team directory. */
  identifiersFrom: '_user entity' | 'team directory';
  roles: string[];
  /** Admins may run and approve every action whatever its permissions say. */
  admin: boolean;
}

/** The service's admin role: it holds every permission, so no change reaches it. */
const ADMIN_ROLE = 'Admin';

const nameOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : isObject(value) && typeof value.name === 'string' ? value.name : undefined;

const namesOf = (values: unknown): string[] => (Array.isArray(values) ? values.map(nameOf).filter((name): name is string => name !== undefined) : []);

const stringsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : undefined;

/**
 * The snapshot's users (docs/formats.md, the org snapshot) joined with the `_user` entities (keyed by email). A
 * record without an email cannot be named in a report and is skipped; the same email twice is one
 * person. Sorted by email.
 */
export function buildPeople(users: readonly unknown[] | null | undefined, userEntities: readonly EntityRecord[], directory: TeamDirectory): Person[] {
  if (!Array.isArray(users)) return [];
  const entityTeams = new Map<string, string[]>();
  for (const entity of userEntities) {
    const teams = stringsOf(entity.team);
    if (teams !== undefined && !entityTeams.has(entity.identifier)) entityTeams.set(entity.identifier, teams);
  }
  const byEmail = new Map<string, Person>();
  for (const record of users) {
    if (!isObject(record) || typeof record.email !== 'string' || byEmail.has(record.email)) continue;
    const names = namesOf(record.teams);
    const roles = namesOf(record.roles);
    const fromEntity = entityTeams.get(record.email);
    byEmail.set(record.email, {
      email: record.email,
      names,
      identifiers: fromEntity ?? names.map((name) => teamIdentifier(directory, name)),
      identifiersFrom: fromEntity ? '_user entity' : 'team directory',
      roles,
      admin: roles.includes(ADMIN_ROLE),
    });
  }
  return [...byEmail.values()].sort((a, b) => compareText(a.email, b.email));
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
