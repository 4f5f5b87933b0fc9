import { isObject } from '../model/json.js';
import type { UserRecord } from '../model/access.js';

/**
 * Only what the contract allows of a user (docs/formats.md, the org snapshot): the email, and teams and roles as
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
