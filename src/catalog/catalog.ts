import type { JsonObject } from '../model/json.js';
import type { EntityRecord, IncompleteEntry, Organization, OrgSnapshot } from '../model/snapshot.js';
import type { JqEngine } from '../jq/engine.js';
import type { InheritanceResolution } from './inheritance.js';
import type { MigrationPlan, MigrationState } from './migration-state.js';
import type { TeamDirectory } from './teams.js';
import type { Person } from './people.js';

/**
 * The snapshot plus indexes derived once, so every rule reads the same facts and none of them
 * rebuilds a map. Built by `buildCatalog`; rules must treat it as read-only.
 */
export interface Catalog {
  organization: Organization;
  snapshot: OrgSnapshot;
  blueprints: ReadonlyMap<string, JsonObject>;
  /** Relation identifiers whose target is `_team`, per blueprint. */
  teamRelations: ReadonlyMap<string, readonly string[]>;
  /**
   * Relations the migration deletes (a `_team` relation that `teamInheritance.path` goes over,
   * the beta-feature case), per blueprint.
   */
  removedRelations: ReadonlyMap<string, ReadonlySet<string>>;
  /** Union of every blueprint's removed relations, for resources whose blueprint is unknown. */
  allRemovedRelations: ReadonlySet<string>;
  inheritance: ReadonlyMap<string, InheritanceResolution>;
  /**
   * Mirror properties whose values are team values (path ending at `$team`), per blueprint: an
   * entity's `.properties.<mirror>` holds titles before the migration and identifiers after it,
   * so reading it is a team read.
   */
  teamMirrors: ReadonlyMap<string, ReadonlySet<string>>;
  teams: TeamDirectory;
  /**
   * The org's people (src/catalog/people.ts): team names as the users API lists them, the same
   * teams' identifiers (from `_user` entities where present) and roles. Empty when the snapshot
   * lists no users, and for repository files.
   */
  people: readonly Person[];
  entities: ReadonlyMap<string, readonly EntityRecord[]>;
  /** Actions and automations, and pages, by identifier: permission maps are keyed by these. */
  actions: ReadonlyMap<string, JsonObject>;
  pages: ReadonlyMap<string, JsonObject>;
  /** False when the snapshot has no `entities` key at all: ownership-direct cannot be decided. */
  entitiesFetched: boolean;
  incomplete: readonly IncompleteEntry[];
  /**
   * The org's team values are identifiers already: the feature flag says it has migrated or,
   * without a flag, its blueprints use `ownership` and each blueprint's entities hold mostly team
   * identifiers (entity-world.ts). Then an expression that only passes team values through already
   * runs on identifiers. A site on a blueprint whose entities tell a world is judged in that one.
   */
  migrated: boolean;
  /** Nothing tells whether the org has migrated (repository files alone, none saying): why, in words. */
  stateUnknown?: string;
  /**
   * The migration has run on the org, fully or not (src/catalog/migration-state.ts: the feature
   * flag, a recorded state, or the shapes without either): the rules of
   * the automatic categories then say what it left undone instead of what it will do. Always false
   * for repository files, which the migration never touches.
   */
  migrationRan: boolean;
  /**
   * How the org's state was found and, in an org that has not migrated, the blueprints judged as
   * migrated by their own `ownership`. Read it through `migrationRanFor(catalog, id)`; absent in
   * catalogs built for repository files (then `migrationRan` decides alone).
   */
  migrationState?: MigrationState;
  /** What the migration was to do, from the report given to `--since`; checked once it has run. */
  plan?: MigrationPlan;
  /** jq itself, loaded at the CLI edge; without it expressions are judged by reading them only. */
  jq?: JqEngine;
  /**
   * How rules judge a jq expression, when not the judge's own function: a repository scan's
   * catalogs share one that remembers each verdict (src/judge/expression-memo.ts, issue 41).
   * Opaque here: the judge made it and alone knows what it is (`judgeOf`), so the catalog, the
   * lower layer, imports nothing of the judge.
   */
  judgeExpression?: object;
}

/**
 * Whether the migration has run for one blueprint: the org's state, or in a half-way org the
 * blueprint's own (it already holds `ownership`). Rules about a blueprint's ownership ask this
 * instead of `catalog.migrationRan`, so a blueprint set by hand does not switch the whole org.
 */
export function migrationRanFor(catalog: Pick<Catalog, 'migrationRan' | 'migrationState'>, blueprintId: string): boolean {
  return catalog.migrationRan || (catalog.migrationState?.migratedBlueprints.has(blueprintId) ?? false);
}

/** Every key in one order: a copy made here (a dry run's) has the original's shape, and code compiled for one serves both. */
export function catalogOf(c: Catalog): Catalog {
  // Every key required here, so a key added to Catalog and not here fails to compile instead of being lost in a copy.
  const copy: { [K in keyof Required<Catalog>]: Catalog[K] } = { organization: c.organization, snapshot: c.snapshot, blueprints: c.blueprints, teamRelations: c.teamRelations, removedRelations: c.removedRelations, allRemovedRelations: c.allRemovedRelations, inheritance: c.inheritance, teamMirrors: c.teamMirrors, teams: c.teams, people: c.people, entities: c.entities, actions: c.actions, pages: c.pages, entitiesFetched: c.entitiesFetched, incomplete: c.incomplete, migrated: c.migrated, stateUnknown: c.stateUnknown, migrationRan: c.migrationRan, migrationState: c.migrationState, plan: c.plan, jq: c.jq, judgeExpression: c.judgeExpression };
  return copy;
}
