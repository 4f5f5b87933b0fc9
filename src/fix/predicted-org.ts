import type { Catalog } from '../catalog/catalog.js';
import { relationsOf, teamInheritancePath } from '../catalog/inheritance.js';
import { translateTeamValues } from '../catalog/teams.js';
import type { JqEngine } from '../jq/engine.js';
import { asString, isObject, jsonRoundTrip, own, type JsonObject, type JsonValue } from '../model/json.js';
import type { Finding } from '../model/finding.js';
import { TEAM_BLUEPRINT, type EntityRecord, type OrgSnapshot, type Organization } from '../model/snapshot.js';
import { MIGRATED_FEATURE_FLAG } from '../catalog/migration-state.js';
import { relationTeams, type RelationMove } from './data-migration.js';
import { applyOrgRewrite, locateOrgTarget, type RewriteOutcome } from './org-rewrite.js';
import { hasTeamValue } from '../repo/context.js';
import { jsonPieces } from '../report/json-pieces.js';

/**
 * The org as it will be after the migration (docs/categories.md, the automatic categories) with every fix
 * of the kit applied: the resources' rewrites, and the data moved out of relations to `_team`.
 * Team titles whose identifier is not known stay titles: the prediction invents no identifier.
 * Its entities (a million in a large org) are not copied here: `predictedEntities` makes each as it
 * will be when it is written, so the predicted org never holds a second copy of the catalog.
 */
export interface PredictedOrg {
  /** The org after the migration; its `entities` is empty, they are in `predictedEntities`. */
  org: OrgSnapshot;
  /** Each blueprint's entities today, with what the migration does to them. */
  entities: ReadonlyMap<string, { records: unknown; change?: (entity: EntityRecord) => void }>;
  /** What became of each fix of the org's resources put into `org`. */
  outcomes: ReadonlyMap<Finding, RewriteOutcome>;
}

export function predictOrg(catalog: Catalog, findings: readonly Finding[], moves: readonly RelationMove[], jq: JqEngine | undefined): PredictedOrg {
  const today = catalog.snapshot.entities;
  const { org, changed } = sharedOrg(catalog.snapshot);
  const outcomes = new Map<Finding, RewriteOutcome>();
  // The fixes first: their locations are paths in the org as it is today (never in an entity).
  for (const finding of findings) {
    if (finding.kind !== 'manual' || finding.resource.type === 'file') continue;
    const target = locateOrgTarget(catalog.snapshot, finding);
    if (target) outcomes.set(finding, applyOrgRewrite(changed(target.record), target.path, finding, jq));
  }
  const translate = (values: readonly string[]) => translateTeamValues(catalog.teams, values);
  migrateTeams(org, catalog);
  const steps = migrateBlueprints(org, catalog, moves, changed);
  for (const map of [org.blueprintPermissions, org.actionPermissions, org.pagePermissions]) {
    for (const permissions of Object.values(map ?? {})) if (permissions && translatePermissionTeams(permissions, translate, false)) translatePermissionTeams(changed(permissions), translate, true);
  }
  const entities = new Map<string, { records: unknown; change?: (entity: EntityRecord) => void }>();
  for (const [blueprint, records] of Object.entries(today ?? {})) {
    if (blueprint === TEAM_BLUEPRINT) entities.set(blueprint, { records: teamEntities(records ?? [], catalog) });
    else if (blueprint.startsWith('_') || !Array.isArray(records)) entities.set(blueprint, { records });
    else {
      const moved = steps.get(blueprint) ?? [];
      entities.set(blueprint, {
        records,
        change: (entity) => {
          for (const step of moved) step(entity);
          translateEntityTeam(entity, translate);
        },
      });
    }
  }
  if (today && !entities.has(TEAM_BLUEPRINT)) entities.set(TEAM_BLUEPRINT, { records: teamEntities([], catalog) });
  // It is the org after the migration: said, so an audit of it (a scan of the patched files) never reads it from shapes.
  org.migrationState = { migrated: true, source: 'predicted' };
  // A live read's feature flags decide the state over the recorded one: the flag the migration sets is
  // set here too, or the predicted org reads as not migrated and every identifier the kit wrote breaks.
  org.organization = withMigratedFlag(org.organization);
  return { org, entities, outcomes };
}

/**
 * The org with its lists and maps its own and their records the snapshot's, but for a record the
 * prediction changes: `changed` puts a JSON copy of it in its place first (once) and returns that.
 * A whole copy held the 100x org's unchanged records twice while the kit was written (issue 41: 31 of
 * the kit's 152 MB live; three quarters of its actions and nine in ten of its pages stay as they are).
 */
function sharedOrg(snapshot: OrgSnapshot): { org: OrgSnapshot; changed: <T extends JsonObject>(record: T) => T } {
  /** Where each of today's records stands in the org's own lists and maps. */
  const places = new Map<unknown, [object, string]>();
  const org = Object.fromEntries(
    Object.entries(snapshot).map(([key, value]) => {
      if (key === 'entities') return [key, value ? {} : value];
      const mine: unknown = Array.isArray(value) ? [...(value as unknown[])] : isObject(value) ? { ...value } : value;
      if (typeof mine === 'object' && mine !== null) for (const [at, item] of Object.entries(mine)) if (isObject(item)) places.set(item, [mine, at]);
      return [key, mine];
    }),
  ) as unknown as OrgSnapshot;
  const changed = <T extends JsonObject>(record: T): T => {
    const place = places.get(record);
    // A copy made here, or a record the prediction adds (a system blueprint), is the org's own.
    if (place === undefined) return record;
    const [container, key] = place;
    // Defined, not assigned: a map's key may be `__proto__`.
    if (own(container as Record<string, unknown>, key) === record) Object.defineProperty(container, key, { value: jsonRoundTrip(record) });
    return own(container as Record<string, T>, key)!;
  };
  return { org, changed };
}

/** The organization record as the service shows it once migrated; one without flags stays without. */
function withMigratedFlag(organization: Organization): Organization {
  const flags = organization.featureFlags;
  if (Array.isArray(flags)) return flags.includes(MIGRATED_FEATURE_FLAG) ? organization : { ...organization, featureFlags: [...flags, MIGRATED_FEATURE_FLAG] };
  if (isObject(flags)) return { ...organization, featureFlags: { ...flags, [MIGRATED_FEATURE_FLAG]: true } };
  return organization;
}

/**
 * The predicted org's JSON, piece by piece: one line per member of the org, one per entity.
 * Compact (a program reads it: `analyze --snapshot predicted-org.json`), and each entity is copied,
 * changed, written and let go in turn.
 */
export function* predictedOrgJson(predicted: PredictedOrg): Generator<string> {
  const members = Object.entries(predicted.org).filter(([, value]) => value !== undefined);
  yield '{';
  for (const [index, [key, value]] of members.entries()) {
    yield `${index === 0 ? '' : ','}\n${JSON.stringify(key)}:`;
    if (key !== 'entities') {
      // Its records one by one: the 100x org's 60,000 actions were one 25 MB string, copied again by each rewrite of it (issue 41).
      yield* jsonPieces(value);
      continue;
    }
    yield '{';
    let firstBlueprint = true;
    for (const [blueprint, { records, change }] of predicted.entities) {
      yield `${firstBlueprint ? '' : ','}\n${JSON.stringify(blueprint)}:`;
      firstBlueprint = false;
      if (!Array.isArray(records)) {
        yield JSON.stringify(records ?? null);
        continue;
      }
      yield '[';
      for (let at = 0; at < records.length; at++) {
        const record: unknown = records[at];
        // A shallow copy is enough: the changes replace `team` and `relations`, they never edit them in place.
        // A literal copy (its own keys, `__proto__` too, as data), not one without a prototype: V8 keeps
        // that one's keys in a dictionary, which JSON.stringify wrote at a third of the speed (issue 41).
        // The changes read only `team` and `relations` of it, never a key the org chose.
        const entity = change && isObject(record) ? { ...(record as EntityRecord) } : record;
        if (change && isObject(entity)) change(entity as EntityRecord);
        yield `${at === 0 ? '' : ','}\n${JSON.stringify(entity ?? null)}`;
      }
      yield ']';
    }
    yield '}';
  }
  yield '\n}\n';
}

/** The migration creates `_user` and `_team` and a `_team` entity per team; `$team` values are its identifiers. */
function migrateTeams(org: OrgSnapshot, catalog: Catalog): void {
  for (const system of ['_user', TEAM_BLUEPRINT]) {
    if (!org.blueprints.some((b) => b.identifier === system)) {
      org.blueprints.push({ identifier: system, title: system === TEAM_BLUEPRINT ? 'Team' : 'User', schema: { properties: {}, required: [] }, relations: {} });
    }
  }
  if (org.teams) {
    org.teams = org.teams.map((team) => {
      const identifier = catalog.teams.byTitle.get(team.name)?.identifier;
      return identifier !== undefined ? { ...team, identifier } : team;
    });
  }
}

/** The `_team` entities after the migration: today's, and one for every team with an identifier that has none. */
function teamEntities(today: unknown, catalog: Catalog): unknown[] {
  const entities = [...(Array.isArray(today) ? (today as EntityRecord[]) : [])];
  const known = new Set(entities.map((entity) => entity.identifier));
  for (const team of catalog.teams.byTitle.values()) {
    if (team.identifier === undefined || known.has(team.identifier)) continue;
    entities.push({ identifier: team.identifier, title: team.title });
    known.add(team.identifier);
  }
  return entities;
}

/** The blueprints after the migration; returns what it does to each blueprint's entities, in order. */
function migrateBlueprints(org: OrgSnapshot, catalog: Catalog, moves: readonly RelationMove[], changed: <T extends JsonObject>(record: T) => T): Map<string, ((entity: EntityRecord) => void)[]> {
  const moved = new Map(moves.map((move) => [move.blueprint, move.relations]));
  const steps = new Map<string, ((entity: EntityRecord) => void)[]>();
  const step = (id: string, change: (entity: EntityRecord) => void) => steps.set(id, [...(steps.get(id) ?? []), change]);
  for (const today of org.blueprints) {
    const id = asString(today.identifier);
    if (id === undefined || id.startsWith('_')) continue;
    const path = teamInheritancePath(today);
    const ownedByEntities = path === undefined && !moved.has(id) && !isObject(today.ownership) && (own(catalog.snapshot.entities, id) ?? []).some((entity) => hasTeamValue(entity.team));
    // Left as it is (and shared with the snapshot) unless one of the changes below applies.
    if (path === undefined && !moved.has(id) && !ownedByEntities && !('teamInheritance' in today)) continue;
    const blueprint = changed(today);
    const resolution = catalog.inheritance.get(id);
    if (path !== undefined && resolution?.kind === 'team-relation') {
      // Beta case: the relation goes, its teams are the entities' own, ownership is Direct.
      step(id, (entity) => moveRelationToTeam(entity, [resolution.relation], true));
      const relations = relationsOf(blueprint);
      delete relations[resolution.relation];
      blueprint.relations = relations;
      blueprint.ownership = { type: 'Direct' };
    } else if (path !== undefined) {
      blueprint.ownership = { type: 'Inherited', path };
    } else if (moved.has(id)) {
      // The kit's data-migration step: Direct ownership first, then the relation's teams copied in.
      blueprint.ownership ??= { type: 'Direct' };
      step(id, (entity) => moveRelationToTeam(entity, moved.get(id)!, false));
    } else if (ownedByEntities) {
      blueprint.ownership = { type: 'Direct' };
    }
    if ('teamInheritance' in blueprint) delete blueprint.teamInheritance;
  }
  return steps;
}

function moveRelationToTeam(entity: EntityRecord, relations: readonly string[], removeRelation: boolean): void {
  const teams = relationTeams(entity, relations);
  if (!hasTeamValue(entity.team) && teams.length > 0) entity.team = teams;
  if (removeRelation && isObject(entity.relations)) {
    const kept = ownCopy(entity.relations);
    for (const relation of relations) delete kept[relation];
    entity.relations = kept;
  }
}

/** A record's own keys in a new object without a prototype (a key such as `__proto__` stays a key). */
const ownCopy = <T extends object>(record: T): T => Object.assign(Object.create(null) as T, record);

function translateEntityTeam(entity: EntityRecord, translate: (values: readonly string[]) => string[]): void {
  if (typeof entity.team === 'string') entity.team = translate([entity.team])[0]!;
  else if (Array.isArray(entity.team)) entity.team = translate(entity.team.filter((v): v is string => typeof v === 'string'));
}

/** Every `teams` list in a permissions document: titles become identifiers, as the migration does. Whether one changes; `write` false only reads. */
function translatePermissionTeams(node: JsonValue, translate: (values: readonly string[]) => string[], write: boolean): boolean {
  let changes = false;
  for (const [key, value] of isObject(node) || Array.isArray(node) ? Object.entries(node) : []) {
    const teams = key === 'teams' && Array.isArray(value) && value.every((v) => typeof v === 'string') ? translate(value as string[]) : undefined;
    if (teams === undefined) changes = (value !== undefined && translatePermissionTeams(value, translate, write)) || changes;
    else if (JSON.stringify(teams) !== JSON.stringify(value)) {
      changes = true;
      if (write) (node as JsonObject)[key] = teams;
    }
  }
  return changes;
}
