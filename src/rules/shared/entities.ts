import { isObject } from '../../model/json.js';
import type { EntityRecord } from '../../model/snapshot.js';

/** Whether an entity carries a `$team` value (a non-empty list, or a non-empty string). */
export const entityHasTeam = (entity: EntityRecord): boolean =>
  (Array.isArray(entity.team) && entity.team.length > 0) || (typeof entity.team === 'string' && entity.team !== '');

/** Whether an entity has relation `relation` set to something. */
export function entityHasRelation(entity: EntityRecord, relation: string): boolean {
  const value = isObject(entity.relations) ? entity.relations[relation] : undefined;
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== '';
}
