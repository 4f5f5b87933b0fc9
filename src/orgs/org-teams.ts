import { compareText } from '../compare-text.js';
import { isObject, keyedFromEntries, type JsonValue } from '../model/json.js';
import type { OrgTeams } from '../model/org-teams.js';
import { TEAM_BLUEPRINT, type OrgSnapshot } from '../model/snapshot.js';

/** What report.orgTeams holds for an org snapshot. Pure. */
export function orgTeams(snapshot: OrgSnapshot): OrgTeams {
  const listed = (snapshot.teams ?? []).flatMap((team) =>
    isObject(team) && typeof team.name === 'string' ? [{ title: team.name, ...(typeof team.identifier === 'string' && { identifier: team.identifier }) }] : [],
  );
  const entities = (snapshot.entities?.[TEAM_BLUEPRINT] ?? []).flatMap((entity) =>
    isObject(entity) && typeof entity.identifier === 'string' ? [{ identifier: entity.identifier, ...(typeof entity.title === 'string' && { title: entity.title }) }] : [],
  );
  const named: OrgTeams['named'] = [];
  const kinds = [
    ['blueprint', snapshot.blueprintPermissions],
    ['action', snapshot.actionPermissions],
    ['page', snapshot.pagePermissions],
  ] as const;
  for (const [kind, map] of kinds) {
    for (const [id, permissions] of Object.entries(map ?? {})) if (permissions) namedTeams(permissions, `${kind} ${id}`, 'permissions', named);
  }
  const owning = new Map<string, number>();
  for (const [blueprint, records] of Object.entries(snapshot.entities ?? {})) {
    if (blueprint.startsWith('_') || !Array.isArray(records)) continue;
    for (const entity of records) {
      const team = isObject(entity) ? entity.team : undefined;
      const values = typeof team === 'string' ? [team] : Array.isArray(team) ? team.filter((v): v is string => typeof v === 'string') : [];
      for (const value of new Set(values)) owning.set(value, (owning.get(value) ?? 0) + 1);
    }
  }
  const result: OrgTeams = { listed, entities, named, owning: sortedRecord(owning) };
  // An empty list says nothing of who is in a team (an org has people; a read that found none is no evidence of empty teams).
  if (Array.isArray(snapshot.users) && snapshot.users.length > 0) {
    const members = new Map<string, number>();
    for (const user of snapshot.users) {
      const teams = (isObject(user as unknown as JsonValue) && Array.isArray(user.teams) ? user.teams : []).map((team) => (typeof team === 'string' ? team : isObject(team as JsonValue) ? team.name : undefined));
      for (const team of new Set(teams)) if (typeof team === 'string') members.set(team, (members.get(team) ?? 0) + 1);
    }
    result.members = sortedRecord(members);
  }
  return result;
}

function namedTeams(node: JsonValue, resource: string, path: string, into: OrgTeams['named']): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => namedTeams(item, resource, `${path}[${index}]`, into));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    if (key === 'teams' && Array.isArray(value)) {
      for (const team of value) if (typeof team === 'string') into.push({ value: team, resource, location: `${path}.teams` });
    } else namedTeams(value, resource, `${path}.${key}`, into);
  }
}

/** A count per name, in code-unit order, so the same org gives the same bytes. */
function sortedRecord(counts: ReadonlyMap<string, number>): Record<string, number> {
  return keyedFromEntries([...counts].sort(([a], [b]) => compareText(a, b)));
}
