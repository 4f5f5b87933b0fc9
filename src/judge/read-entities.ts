/**
 * The entities of a blueprint that impact is measured on: those a live run reads (the fetcher's
 * planned searches, src/sources/live.ts), taken from the snapshot in its order. A snapshot file
 * may hold more; measuring on the same sample keeps a live run and its recording alike.
 */
import type { Catalog } from '../catalog/catalog.js';
import { isObject, type JsonValue } from '../model/json.js';
import type { EntityRecord } from '../model/snapshot.js';
import { plannedEntitySearches } from '../sources/live.js';

const filled = (value: JsonValue | undefined) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== '');

function matches(entity: EntityRecord, rules: readonly { property: string; operator: string }[]): boolean {
  return rules.every((rule) => {
    const value = rule.property === '$team' ? entity.team : isObject(entity.relations) ? entity.relations[rule.property] : undefined;
    return rule.operator === 'isNotEmpty' ? filled(value) : rule.operator === 'isEmpty' ? !filled(value) : false;
  });
}

export function entitiesRead(catalog: Catalog, blueprint: string): EntityRecord[] {
  const record = catalog.blueprints.get(blueprint);
  const entities = catalog.entities.get(blueprint) ?? [];
  if (!record || entities.length === 0) return [];
  const read = new Set<EntityRecord>();
  for (const search of plannedEntitySearches(record)) {
    const rules = (Array.isArray(search.query.rules) ? search.query.rules : []) as { property: string; operator: string }[];
    let taken = 0;
    for (const entity of entities) {
      if (taken >= search.maxEntities) break;
      if (matches(entity, rules)) {
        read.add(entity);
        taken++;
      }
    }
  }
  return entities.filter((entity) => read.has(entity));
}
