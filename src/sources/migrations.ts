import { ApiShapeError, type ApiClient } from '../api/client.js';
import { TEAM_BLUEPRINT } from '../model/snapshot.js';
import { relationsOf, teamInheritancePath } from '../catalog/inheritance.js';
import { isObject, type JsonObject } from '../model/json.js';
import { idOf } from './permission-plan.js';

/**
 * Blueprints of the org's own that keep teams in a relation to `_team` without teamInheritance and
 * with Direct ownership: those the relation-ownership rule reads whose data a migration
 * (`POST /v1/migrations`, docs/live-service.md) can have moved. The data move needs Direct
 * ownership first (docs/live-service.md, data moves), so for the others no completed migration can exist: not asked.
 */
export function relationOwnershipCandidates(blueprints: readonly JsonObject[]): string[] {
  return blueprints
    .filter((blueprint) => {
      const id = idOf(blueprint);
      if (id === undefined || id.startsWith('_') || teamInheritancePath(blueprint) !== undefined) return false;
      if (!isObject(blueprint.ownership) || blueprint.ownership.type !== 'Direct') return false;
      return Object.values(relationsOf(blueprint)).some((relation) => relation.target === TEAM_BLUEPRINT);
    })
    .map((blueprint) => idOf(blueprint) as string)
    .sort();
}

/** What the report needs of a completed migration: which, when, and the mapping it ran. */
interface MigrationRecord extends JsonObject {
  id: string;
}

const KEPT = ['id', 'status', 'sourceBlueprint', 'createdAt', 'updatedAt', 'mapping'] as const;

/** `GET /v1/migrations?blueprint=X&status=COMPLETED`: the data migrations that completed for one blueprint. */
export async function readCompletedMigrations(client: ApiClient, blueprint: string): Promise<MigrationRecord[]> {
  const path = `/v1/migrations?blueprint=${encodeURIComponent(blueprint)}&status=COMPLETED`;
  const payload = await client.get(path, 'migrations');
  if (!Array.isArray(payload)) throw new ApiShapeError(`GET ${path}: expected an array of migrations`);
  return payload.filter(isObject).flatMap((migration) => {
    if (typeof migration.id !== 'string') return [];
    const kept: JsonObject = {};
    for (const key of KEPT) if (migration[key] !== undefined && migration[key] !== null) kept[key] = migration[key];
    return [kept as MigrationRecord];
  });
}
