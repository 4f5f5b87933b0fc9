import type { CrossOrgCheck, OrgTeams } from '../model/org-teams.js';

/** One org as the checks across orgs (`CrossOrgCheck`, which says each check) read it. */
export interface OrgTeamsOf {
  organization: { id: string; name: string };
  teams: OrgTeams;
}

/** One team of an org under every name it goes by (its title and identifier). */
interface TeamUnit {
  title?: string;
  identifier?: string;
}

function teamUnits(teams: OrgTeams): TeamUnit[] {
  const units: TeamUnit[] = teams.listed.map((team) => ({ ...team }));
  for (const entity of teams.entities) {
    const same = units.find((unit) => unit.identifier === entity.identifier || (unit.identifier === undefined && entity.title !== undefined && unit.title === entity.title));
    if (same) same.identifier ??= entity.identifier;
    else units.push({ identifier: entity.identifier, ...(entity.title !== undefined && { title: entity.title }) });
  }
  return units;
}

const namesOf = (unit: TeamUnit) => [unit.title, unit.identifier].filter((name): name is string => name !== undefined);
const own = (record: Record<string, number> | undefined, key: string) => (record !== undefined && Object.hasOwn(record, key) ? record[key]! : 0);

/** Every check over the orgs, in org order then check order. Pure. */
export function crossOrgChecks(orgs: readonly OrgTeamsOf[]): CrossOrgCheck[] {
  const units = orgs.map((org) => teamUnits(org.teams));
  const checks: CrossOrgCheck[] = [];
  orgs.forEach((org, index) => {
    const mine = units[index]!;
    const known = new Set(mine.flatMap(namesOf));
    const name = JSON.stringify(org.organization.name);
    // A permission naming a team this org lacks and another org has.
    for (const site of org.teams.named) {
      if (known.has(site.value)) continue;
      const others = orgs.filter((other, at) => at !== index && units[at]!.some((unit) => unit.identifier === site.value)).map((other) => JSON.stringify(other.organization.name));
      if (others.length === 0) continue;
      checks.push({
        check: 'team-missing',
        org: org.organization.id,
        team: site.value,
        resource: site.resource,
        location: site.location,
        message: `${site.resource} ${site.location} names the team ${JSON.stringify(site.value)}, which org ${name} does not have (it is a team of ${others.join(', ')}): nobody in ${name} gets this access through it.`,
      });
    }
    // A team nobody is in that grants access or owns entities (only when the org's users were read).
    if (org.teams.members !== undefined) {
      for (const unit of mine) {
        const names = namesOf(unit);
        if (names.some((team) => own(org.teams.members, team) > 0)) continue;
        const grants = org.teams.named.filter((site) => names.includes(site.value)).length;
        const owns = names.reduce((sum, team) => sum + own(org.teams.owning, team), 0);
        if (grants === 0 && owns === 0) continue;
        const what = [grants > 0 ? `is named by ${grants} permission${grants === 1 ? '' : 's'}` : '', owns > 0 ? `owns ${owns} entit${owns === 1 ? 'y' : 'ies'}` : ''].filter(Boolean).join(' and ');
        checks.push({ check: 'empty-team', org: org.organization.id, team: unit.identifier ?? unit.title!, message: `The team ${JSON.stringify(unit.title ?? unit.identifier)} of org ${name} has no members but ${what}: it grants nobody anything.` });
      }
    }
    // A `_team` entity whose identifier is another team's title, in this org or another. A made entity
    // has no title of its own (members say nothing: users name teams by title, and its identifier is one).
    for (const entity of org.teams.entities) {
      if (entity.title !== undefined && entity.title !== entity.identifier) continue;
      const other = orgs.flatMap((any, at) => units[at]!.filter((unit) => unit.title === entity.identifier && unit.identifier !== entity.identifier).map(() => any));
      if (other.length === 0) continue;
      const where = other.map((any) => JSON.stringify(any.organization.name));
      checks.push({
        check: 'phantom-team',
        org: org.organization.id,
        team: entity.identifier,
        message: `The _team entity ${JSON.stringify(entity.identifier)} of org ${name} has another team's title as its identifier (in ${[...new Set(where)].join(', ')}): a title-valued relation to _team with "create missing related entities" on makes such a team, which nobody is in.`,
      });
    }
  });
  return checks;
}
