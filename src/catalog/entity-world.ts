/**
 * Issue 39: in a half-way org the world an expression runs in is the world of the entities it
 * reads. A blueprint's entities tell it: most of those whose teams tell anything hold identifiers
 * (no team's title), or most hold titles (no team's identifier). The others are stragglers, named
 * as the entities that still hold what the rest no longer do, never the blueprint's world.
 */
import type { EntityRecord } from '../model/snapshot.js';
import { classifyTeamValue, type TeamDirectory } from './teams.js';
import type { Catalog } from './catalog.js';

export interface EntityWorld {
  /** Most of the blueprint's entities hold team identifiers already, or most hold titles; undefined: as many one way as the other. */
  migrated: boolean | undefined;
  /** How many entities hold identifiers, and how many titles. */
  identifiers: number;
  titles: number;
  /** Entities holding the other world's values (titles where most hold identifiers), with those values. */
  stragglers: readonly { identifier: string; values: readonly string[] }[];
  /** Some entity holds a team value no team of the org holds, or one that is no string. */
  unknown: boolean;
}

/** What the entities tell. */
export function worldOfEntities(records: readonly EntityRecord[], teams: TeamDirectory): EntityWorld {
  const told = { identifier: [] as { identifier: string; values: string[] }[], title: [] as { identifier: string; values: string[] }[] };
  let unknown = false;
  for (const record of records) {
    const list = Array.isArray(record.team) ? record.team : record.team === undefined || record.team === null ? [] : [record.team];
    const held = { identifier: [] as string[], title: [] as string[] };
    for (const value of list) {
      const state = typeof value === 'string' ? classifyTeamValue(teams, value).state : 'unknown';
      if (state === 'unknown') unknown = true;
      // One team's title that is another's identifier tells neither way.
      else if (state === 'identifier' && !teams.byTitle.has(value as string)) held.identifier.push(value as string);
      else if (state !== 'identifier' && !teams.identifiers.has(value as string)) held.title.push(value as string);
    }
    // An entity holding both is a title's straggler: it has not been migrated whole.
    const side = held.title.length > 0 ? 'title' : held.identifier.length > 0 ? 'identifier' : undefined;
    if (side) told[side].push({ identifier: record.identifier, values: held[side] });
  }
  const [identifiers, titles] = [told.identifier.length, told.title.length];
  const migrated = identifiers === titles ? undefined : identifiers > titles;
  return { migrated, identifiers, titles, stragglers: migrated === undefined ? [] : migrated ? told.title : told.identifier, unknown };
}

const worlds = new WeakMap<object, Map<string, EntityWorld>>();

/** A blueprint's world by its own entities, where they tell one (worldOfEntities), once per catalog. */
export function entityWorld(catalog: Pick<Catalog, 'entities' | 'teams'>, blueprint: string | undefined): (EntityWorld & { migrated: boolean }) | undefined {
  if (blueprint === undefined) return undefined;
  let known = worlds.get(catalog.entities);
  if (!known) worlds.set(catalog.entities, (known = new Map()));
  let world = known.get(blueprint);
  if (world === undefined) known.set(blueprint, (world = worldOfEntities(catalog.entities.get(blueprint) ?? [], catalog.teams)));
  return world.migrated === undefined ? undefined : (world as EntityWorld & { migrated: boolean });
}

/** In words, where most entities hold identifiers: `"svc-qa" still holds team title "QA"`, up to three, then how many more. */
export function stragglersSaid(world: EntityWorld, blueprint: string): string | undefined {
  if (world.stragglers.length === 0) return undefined;
  const named = world.stragglers.slice(0, 3).map((entity) => `${JSON.stringify(entity.identifier)} still holds team title ${entity.values.map((v) => JSON.stringify(v)).join(', ')}`);
  const more = world.stragglers.length > 3 ? ` and ${world.stragglers.length - 3} more entities` : '';
  return `Of blueprint ${JSON.stringify(blueprint)}, whose entities hold team identifiers, entity ${named.join('; ')}${more}: there it gives what it gives with team titles, until that entity holds its team's identifier.`;
}
