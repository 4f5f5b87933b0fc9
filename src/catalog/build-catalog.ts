import { dropPrototypes, isObject, type JsonObject } from '../model/json.js';
import { TEAM_BLUEPRINT, USER_BLUEPRINT, type EntityRecord, type OrgSnapshot } from '../model/snapshot.js';
import { catalogOf, type Catalog } from './catalog.js';
import { readMigrationState, type MigrationPlan } from './migration-state.js';
import { mirrorPathEffect, mirrorsOf } from './mirror-paths.js';
import { relationsOf, resolveInheritance, teamInheritancePath, type InheritanceResolution } from './inheritance.js';
import { buildTeamDirectory, type TeamDirectory, type TeamsMap } from './teams.js';
import { worldOfEntities } from './entity-world.js';
import type { JqEngine } from '../jq/engine.js';
import { buildPeople } from './people.js';
import { teamCombinations } from './team-combinations.js';

export interface CatalogOptions {
  teamsMap?: TeamsMap;
  /** Loaded by the caller (it is async); rules use it to validate and run jq expressions. */
  jq?: JqEngine;
  /** From the `--since` report: what the migration was to do (src/progress/migration-plan.ts). */
  plan?: MigrationPlan;
  /** The snapshot names only some of the org's teams (a repository's files, src/repo/repository-catalog.ts). */
  partialTeams?: boolean;
}

/**
 * Derive every index the rules share, once, in time linear in the size of the org. The snapshot
 * is the catalog's from here on: its objects lose their prototype (in place), so no lookup by a
 * name the service chose (a blueprint called `constructor`) reaches Object.prototype.
 */
export function buildCatalog(snapshot: OrgSnapshot, options: CatalogOptions = {}): Catalog {
  dropPrototypes(snapshot);
  const blueprints = byIdentifier(snapshot.blueprints);

  const teamRelations = new Map<string, string[]>();
  for (const [id, blueprint] of blueprints) {
    // On the system blueprints a relation to _team is no ownership: `parent_team` on _team is a
    // team hierarchy and `teams` on _user is membership, as migrated orgs hold them.
    if (id === TEAM_BLUEPRINT || id === USER_BLUEPRINT) continue;
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

  // Once migrated, a relation the migration removed is gone from the org: only the plan remembers
  // it, and whatever still names it (an excluded field, a calculation) is still broken.
  for (const [id, relation] of options.plan?.removedRelations ?? []) {
    removedRelations.set(id, new Set([...(removedRelations.get(id) ?? []), relation]));
    allRemovedRelations.add(relation);
  }

  const teamMirrors = new Map<string, Set<string>>();
  for (const [id, blueprint] of blueprints) {
    const ids = mirrorsOf(blueprint)
      .filter((mirror) => mirrorPathEffect(id, mirror.path, blueprints, removedRelations).kind === 'team-values')
      .map((mirror) => mirror.id);
    if (ids.length > 0) teamMirrors.set(id, new Set(ids));
  }

  const entities = new Map<string, EntityRecord[]>();
  for (const [blueprintId, records] of Object.entries(snapshot.entities ?? {})) {
    // `null` (absent, as the API may send it) is no entities; non-objects never reach here once validated.
    entities.set(blueprintId, Array.isArray(records) ? records.filter((record) => isObject(record)) : []);
  }

  const directory = buildTeamDirectory(snapshot.teams ?? [], entities.get(TEAM_BLUEPRINT) ?? [], options.teamsMap, options.partialTeams);
  const people = buildPeople(snapshot.users, entities.get(USER_BLUEPRINT) ?? [], directory);
  const combinations = teamCombinations(snapshot.entities != null ? entities : undefined, people, directory);
  const teams: TeamDirectory = combinations ? { ...directory, combinations } : directory;
  // Issue 25: the service's flag (or the state the snapshot recorded) first; shapes only without either.
  const migrationState = readMigrationState(snapshot.organization, snapshot.migrationState, blueprints);

  return catalogOf({
    organization: snapshot.organization,
    snapshot,
    blueprints,
    teamRelations,
    removedRelations,
    allRemovedRelations,
    inheritance,
    teamMirrors,
    teams,
    people,
    entities,
    actions: byIdentifier(snapshot.actions ?? []),
    pages: byIdentifier(snapshot.pages ?? []),
    entitiesFetched: snapshot.entities != null, // null: not fetched
    // With the flag known, team values are identifiers exactly when it says the org has migrated.
    migrated: migrationState.source === 'shapes' ? isMigrated(blueprints, entities, snapshot.entities != null, teams) : migrationState.ran,
    migrationRan: migrationState.ran,
    migrationState,
    incomplete: snapshot.incomplete ?? [],
    jq: options.jq,
    plan: options.plan,
  });
}

/**
 * Has the org already been migrated? All of these must hold, so an org we cannot see well enough
 * is never taken for migrated (it would silence real breakage). A blueprint left with a
 * `teamInheritance` path is no veto: the migration can leave one, and the state's note reports it
 * as undone; the entities' values decide.
 * - some blueprint of the org's own (not a `_` system one) has `ownership`, the new setting;
 * - entities were fetched, and of each blueprint's entities whose `$team` values tell a world, more
 *   hold identifiers than titles (entity-world.ts: one straggler left holding a title is named where
 *   it is read, not the org's world), some do, and none holds a value no team holds.
 */
function isMigrated(blueprints: ReadonlyMap<string, JsonObject>, entities: ReadonlyMap<string, readonly EntityRecord[]>, entitiesFetched: boolean, teams: TeamDirectory): boolean {
  const own = [...blueprints.entries()].filter(([id]) => !id.startsWith('_')).map(([, blueprint]) => blueprint);
  if (!own.some((blueprint) => isObject(blueprint.ownership)) || !entitiesFetched) return false;
  let told = false;
  for (const [blueprintId, records] of entities) {
    if (blueprintId.startsWith('_')) continue;
    const world = worldOfEntities(records, teams);
    if (world.unknown || (world.titles > 0 && world.titles >= world.identifiers)) return false;
    told ||= world.identifiers > world.titles;
  }
  return told;
}

function byIdentifier(records: readonly JsonObject[]): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  for (const record of records) if (typeof record.identifier === 'string') map.set(record.identifier, record);
  return map;
}
