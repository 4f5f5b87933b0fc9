import { isObject, type JsonObject } from '../model/json.js';
import type { EntityRecord, OrgSnapshot } from '../model/snapshot.js';
import { TEAM_BLUEPRINT, type Catalog } from './catalog.js';
import { relationsOf, resolveInheritance, teamInheritancePath, type InheritanceResolution } from './inheritance.js';
import { buildTeamDirectory, type TeamsMap } from './teams.js';
import type { JqEngine } from '../jq/engine.js';

export interface CatalogOptions {
  teamsMap?: TeamsMap;
  /** Loaded by the caller (it is async); rules use it to validate and run jq expressions. */
  jq?: JqEngine;
}

/** Derive every index the rules share, once, in time linear in the size of the org. */
export function buildCatalog(snapshot: OrgSnapshot, options: CatalogOptions = {}): Catalog {
  const blueprints = new Map<string, JsonObject>();
  for (const blueprint of snapshot.blueprints) {
    if (typeof blueprint.identifier === 'string') blueprints.set(blueprint.identifier, blueprint);
  }

  const teamRelations = new Map<string, string[]>();
  for (const [id, blueprint] of blueprints) {
    const ids = Object.entries(relationsOf(blueprint))
      .filter(([, relation]) => relation.target === TEAM_BLUEPRINT)
      .map(([relationId]) => relationId);
    if (ids.length > 0) teamRelations.set(id, ids);
  }

  const inheritance = new Map<string, InheritanceResolution>();
  const removedRelations = new Map<string, Set<string>>();
  const allRemovedRelations = new Set<string>();
  for (const [id, blueprint] of blueprints) {
    const path = teamInheritancePath(blueprint);
    if (path === undefined) continue;
    const resolution = resolveInheritance(id, path, blueprints, TEAM_BLUEPRINT);
    inheritance.set(id, resolution);
    if (resolution.kind === 'team-relation') {
      removedRelations.set(id, new Set([resolution.relation]));
      allRemovedRelations.add(resolution.relation);
    }
  }

  const entities = new Map<string, EntityRecord[]>();
  for (const [blueprintId, records] of Object.entries(snapshot.entities ?? {})) {
    // `null` (absent, as the API may send it) is no entities; non-objects never reach here once validated.
    entities.set(blueprintId, Array.isArray(records) ? records.filter((record) => isObject(record)) : []);
  }

  return {
    organization: snapshot.organization,
    snapshot,
    blueprints,
    teamRelations,
    removedRelations,
    allRemovedRelations,
    inheritance,
    teams: buildTeamDirectory(snapshot.teams ?? [], entities.get(TEAM_BLUEPRINT) ?? [], options.teamsMap),
    entities,
    entitiesFetched: snapshot.entities != null, // null: not fetched
    incomplete: snapshot.incomplete ?? [],
    ...(options.jq && { jq: options.jq }),
  };
}
