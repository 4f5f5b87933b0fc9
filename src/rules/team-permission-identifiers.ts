import type { Catalog } from '../catalog/catalog.js';
import { partitionTeamValues, unknownIdentifierHint } from '../catalog/teams.js';
import { isObject, type JsonObject } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { actionRef, blueprintRef, pageRef } from '../catalog/resources.js';

/**
 * Spec 4.3: explicit team entries in blueprint, action and page permissions are rewritten from
 * titles to identifiers. Every `teams` list at any depth counts (register, update, unregister,
 * updateProperties.*, updateMetadataProperties.*, updateRelations.*, execute, approve, read);
 * policies are dynamic permissions, a manual category of their own.
 */
export const teamPermissionIdentifiers: Rule = {
  category: 'team-permission-identifiers',
  asksJq: false,
  // Once the migration has run, a title left in permissions is a deviation (missed-permission-identifiers.ts).
  check: (catalog) => (catalog.migrationRan ? [] : plannedPermissionRewrites(catalog)),
};

/** Explicit team lists the migration rewrites from titles to identifiers. */
export function plannedPermissionRewrites(catalog: Catalog): FindingDraft[] {
  const { snapshot } = catalog;
  const findings: FindingDraft[] = [];
  // `null` permissions (absent, as the API may send them) have no team lists.
  const scan = (resource: ResourceRef, permissions: JsonObject | null) => {
    if (!isObject(permissions)) return;
    for (const site of teamLists(permissions, ['permissions'])) {
      const finding = permissionFinding(catalog, resource, site);
      if (finding) findings.push(finding);
    }
  };
  for (const [id, permissions] of Object.entries(snapshot.blueprintPermissions ?? {})) {
    const blueprint = catalog.blueprints.get(id);
    scan(blueprint ? blueprintRef(blueprint) : { type: 'blueprint', identifier: id }, permissions);
  }
  for (const [id, permissions] of Object.entries(snapshot.actionPermissions ?? {})) {
    const action = catalog.actions.get(id);
    scan(action ? actionRef(action) : { type: 'action', identifier: id }, permissions);
  }
  for (const [id, permissions] of Object.entries(snapshot.pagePermissions ?? {})) {
    const page = catalog.pages.get(id);
    scan(page ? pageRef(page) : { type: 'page', identifier: id }, permissions);
  }
  return findings;
}

interface TeamListSite {
  path: (string | number)[];
  teams: string[];
}

/** Every non-empty `teams: [string…]` below `node` (through objects and lists), skipping `policy` subtrees. */
function teamLists(node: JsonObject, path: (string | number)[]): TeamListSite[] {
  const sites: TeamListSite[] = [];
  // One path, pushed and popped as the walk goes: a copy is made only where a team list is found.
  const walk = (object: JsonObject): void => {
    for (const [key, value] of Object.entries(object)) {
      if (key === 'policy') continue;
      path.push(key);
      if (key === 'teams' && (Array.isArray(value) || typeof value === 'string')) {
        // One team written as a plain string (noted by the loader) is still that team's title.
        const teams = [value].flat().filter((v): v is string => typeof v === 'string' && v !== '');
        if (teams.length > 0) sites.push({ path: [...path], teams });
      } else if (isObject(value)) {
        walk(value);
      } else if (Array.isArray(value)) {
        // A list of permission objects is no known shape; the team lists inside still count.
        value.forEach((item, index) => {
          if (!isObject(item)) return;
          path.push(index);
          walk(item);
          path.pop();
        });
      }
      path.pop();
    }
  };
  walk(node);
  return sites;
}

function permissionFinding(catalog: Catalog, resource: ResourceRef, site: TeamListSite): FindingDraft | undefined {
  const { titles: known, pendingTitles, unknown, translated: rewritten } = partitionTeamValues(catalog.teams, site.teams);
  const titles = site.teams.filter((team) => known.includes(team) || pendingTitles.includes(team));
  if (titles.length === 0 && unknown.length === 0) return earlyIdentifiers(catalog, resource, site);

  const titleList = titles.map((t) => JSON.stringify(t)).join(', ');
  const finding: FindingDraft = {
    category: 'team-permission-identifiers',
    resource,
    location: joinPath(...site.path),
    evidence: JSON.stringify(site.teams),
    reason:
      titles.length > 0
        ? `These permissions name ${titles.length > 1 ? 'teams' : 'a team'} by title (${titleList}); the migration replaces titles with team identifiers.`
        : 'These permissions name teams that are not known titles or identifiers; the migration rewrites titles to identifiers.',
    suggestion:
      pendingTitles.length === 0
        ? `Nothing to do in the service; in permissions kept as code write ${JSON.stringify(rewritten)}.`
        : `Nothing to do in the service; in permissions kept as code write the team identifiers once known (${unknownIdentifierHint(pendingTitles)}).`,
  };
  if (rewritten.some((value, index) => value !== site.teams[index])) finding.rewrite = JSON.stringify(rewritten);
  const notes: string[] = [];
  if (pendingTitles.length > 0) notes.push(unknownIdentifierHint(pendingTitles));
  if (unknown.length > 0) {
    notes.push(`${unknown.map((u) => JSON.stringify(u)).join(', ')} matches no known team; check that the team still exists`);
  }
  if (notes.length > 0) finding.note = `${notes.join('; ')}.`;
  return finding;
}

/**
 * A list of identifiers only, in an org that has not migrated: the service matches explicit team
 * entries against titles until the migration (spec 2.3: titles before, identifiers after), and the
 * migration replaces titles only, so an identifier that is no team's title lets nobody in today and
 * that team's members afterwards. The access report shows them gaining it; this says where and why.
 * Like every change of this automatic category, it carries no verdict: a person confirms the gain.
 */
function earlyIdentifiers(catalog: Catalog, resource: ResourceRef, site: TeamListSite): FindingDraft | undefined {
  // Only a team whose title is known and is not the identifier: one known by identifier alone may be titled so.
  const titleOf = (identifier: string) => [...catalog.teams.byTitle.values()].find((team) => team.identifier === identifier && team.title !== identifier)?.title;
  const early = site.teams.filter((value) => !catalog.teams.byTitle.has(value) && titleOf(value) !== undefined);
  if (early.length === 0) return undefined;
  const teams = early.map((identifier) => titleOf(identifier)!);
  const named = teams.map((title) => JSON.stringify(title)).join(', ');
  return {
    category: 'team-permission-identifiers',
    resource,
    location: joinPath(...site.path),
    evidence: JSON.stringify(site.teams),
    reason: `These permissions name ${early.length > 1 ? 'teams' : 'a team'} by identifier (${early.map((v) => JSON.stringify(v)).join(', ')}) before the migration: the service matches team entries against titles until it runs, so today this entry lets nobody in, and once teams are identifiers the members of ${named} gain the permission.`,
    suggestion: `Make sure the members of ${named} are meant to have it; if they are, nothing to do (it is written for identifiers: the migration makes it work). If they need it before the migration, add the title as well.`,
  };
}
