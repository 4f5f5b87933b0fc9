/**
 * Issue 39: in a half-way org the world an expression runs in is the world of the entities it
 * reads. A blueprint whose entities mostly hold team identifiers (no team's title) has migrated,
 * whatever the rest of the org holds; its entities left holding titles are stragglers, named where
 * they are read, never the blueprint's world.
 */
import type { EntityRecord } from '../model/snapshot.js';
import { classifyTeamValue, type TeamDirectory } from './teams.js';
import type { Catalog } from './catalog.js';

export interface EntityWorld {
  /** How many entities hold identifiers (and no title), and how many hold titles. */
  identifiers: number;
  titles: number;
  /** The entities holding titles, with those titles. */
  stragglers: readonly { identifier: string; values: readonly string[] }[];
  /** Some entity holds a team value no team of the org holds, or one that is no string. */
  unknown: boolean;
}

/** What the entities' team values tell; one team's title that is another's identifier tells neither way. */
export function worldOfEntities(records: readonly EntityRecord[], teams: TeamDirectory): EntityWorld {
  const world = { identifiers: 0, titles: 0, stragglers: [] as { identifier: string; values: string[] }[], unknown: false };
  for (const record of records) {
    const list = Array.isArray(record.team) ? record.team : record.team === undefined || record.team === null ? [] : [record.team];
    const states = list.map((value) => (typeof value === 'string' ? classifyTeamValue(teams, value).state : 'unknown'));
    world.unknown ||= states.includes('unknown');
    const titles = list.filter((value, i): value is string => states[i] !== 'identifier' && states[i] !== 'unknown' && !teams.identifiers.has(value as string));
    if (titles.length > 0) world.stragglers.push({ identifier: record.identifier, values: titles });
    else if (list.some((value, i) => states[i] === 'identifier' && !teams.byTitle.has(value as string))) world.identifiers++;
  }
  world.titles = world.stragglers.length;
  return world;
}

const worlds = new WeakMap<object, Map<string, EntityWorld>>();

/**
 * A blueprint's entities, where most of them hold team identifiers already; undefined otherwise.
 * Every blueprint's at the first call, once per catalog: asked for each site, this stays a lookup,
 * never entity records of many shapes met one blueprint at a time in compiled code.
 */
export function migratedEntities(catalog: Pick<Catalog, 'entities' | 'teams'>, blueprint: string | undefined): EntityWorld | undefined {
  if (blueprint === undefined) return undefined;
  let known = worlds.get(catalog.entities);
  if (!known) worlds.set(catalog.entities, (known = new Map([...catalog.entities].map(([id, records]) => [id, worldOfEntities(records, catalog.teams)]))));
  const world = known.get(blueprint);
  return world !== undefined && world.identifiers > world.titles ? world : undefined;
}

/** In words: `"svc-qa" still holds team title "QA"`, up to three, then how many more. */
export function stragglersSaid(world: EntityWorld, blueprint: string): string | undefined {
  if (world.stragglers.length === 0) return undefined;
  const named = world.stragglers.slice(0, 3).map((entity) => `${JSON.stringify(entity.identifier)} still holds team title ${entity.values.map((v) => JSON.stringify(v)).join(', ')}`);
  const more = world.stragglers.length > 3 ? ` and ${world.stragglers.length - 3} more entities` : '';
  return `Of blueprint ${JSON.stringify(blueprint)}, whose entities hold team identifiers, entity ${named.join('; ')}${more}: there it meets a team title, as before the migration, until that entity holds its team's identifier.`;
}
