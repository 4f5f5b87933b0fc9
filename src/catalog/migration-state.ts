import { isObject } from '../model/json.js';
import type { JsonObject } from '../model/json.js';

/**
 * Has the migration run on this org, fully or not? `ownership` exists only once it has (spec 4.3:
 * it replaces team inheritance), so one of the org's own blueprints holding it is the sign.
 * Weaker than `catalog.migrated`, which also wants every trace of the old model gone: here a
 * leftover `teamInheritance` or title is exactly what the deviation rules look for.
 */
export function migrationHasRun(blueprints: ReadonlyMap<string, JsonObject>): boolean {
  for (const [id, blueprint] of blueprints) if (!id.startsWith('_') && isObject(blueprint.ownership)) return true;
  return false;
}

/** Ownership as the migration sets it (spec 4.3). */
export type PlannedOwnership = { type: 'Direct' } | { type: 'Inherited'; path: string };

/**
 * What the migration was to do, as a report from before it said (`--since`): once it has run,
 * `teamInheritance` is gone from the org, so only this record tells which path a blueprint
 * should inherit over, or which relation to `_team` should have been removed.
 */
export interface MigrationPlan {
  /** Blueprint → the ownership it should have (from ownership-direct and ownership-inherited findings). */
  ownership: ReadonlyMap<string, PlannedOwnership>;
  /** Blueprint → the relation to `_team` the migration should have removed, setting Direct ownership. */
  removedRelations: ReadonlyMap<string, string>;
}
