/**
 * docs/formats.md, the report `impact.entities`: a calculation run on the blueprint's own entities, as they
 * are before the migration (team titles, removed relations still there) and after it (the same
 * teams' identifiers, those relations gone): how many change value, of how many read, and one
 * example. Pure apart from asking jq.
 */
import type { Catalog } from '../catalog/catalog.js';
import { describeResult } from './differential.js';
import type { FindingImpact } from '../model/finding.js';
import { keyedRecord, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { EntityRecord } from '../model/snapshot.js';
import { entitiesRead } from './read-entities.js';

/** Ours: entities of a blueprint read per calculation; enough to say how many change. */
const MAX_ENTITIES = 200;

export function entityImpact(catalog: Catalog, blueprint: string, expression: string, removedRelations: ReadonlySet<string>): FindingImpact['entities'] | undefined {
  const jq = catalog.jq;
  const entities = entitiesRead(catalog, blueprint).slice(0, MAX_ENTITIES);
  if (!jq || entities.length === 0) return undefined;
  const toId = new Map<string, string>();
  const toTitle = new Map<string, string>();
  for (const team of catalog.teams.byTitle.values()) {
    if (team.identifier === undefined) continue;
    toId.set(team.title, team.identifier);
    toTitle.set(team.identifier, team.title);
  }
  const worlds = entities.map((entity) => worldsOf(entity, toId, toTitle, removedRelations));
  jq.prefetch?.({ evaluate: [{ expression, inputs: worlds.flatMap((w) => [w.before, w.after]) }] });
  let changed = 0;
  let example: { identifier: string; before: string; after: string } | undefined;
  worlds.forEach((world, i) => {
    const before = jq.evaluate(world.before, expression);
    const after = jq.evaluate(world.after, expression);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    changed++;
    example ??= { identifier: entities[i]!.identifier, before: describeResult(before), after: describeResult(after) };
  });
  return example ? { changed, read: entities.length, example } : { changed, read: entities.length };
}

function worldsOf(entity: EntityRecord, toId: ReadonlyMap<string, string>, toTitle: ReadonlyMap<string, string>, removed: ReadonlySet<string>): { before: JsonValue; after: JsonValue } {
  const values = Array.isArray(entity.team) ? entity.team.filter((v): v is string => typeof v === 'string') : typeof entity.team === 'string' ? [entity.team] : [];
  const titles = values.map((v) => (toId.has(v) ? v : (toTitle.get(v) ?? v)));
  const relations: JsonObject = isObject(entity.relations) ? entity.relations : keyedRecord();
  const kept: JsonObject = keyedRecord();
  for (const [name, value] of Object.entries(relations)) if (!removed.has(name)) kept[name] = value;
  const base: JsonObject = { ...entity, properties: isObject(entity.properties) ? entity.properties : {} };
  return {
    before: { ...base, team: titles, relations },
    after: { ...base, team: titles.map((t) => toId.get(t) ?? t), relations: kept },
  };
}
