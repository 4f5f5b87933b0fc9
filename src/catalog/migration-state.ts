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
