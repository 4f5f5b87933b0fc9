/**
 * Issue 39, item 7: after the migration, what the org's own entities hold decides. A literal the
 * expression meets in them outside their team values (a description, a tier) is their text, not a
 * team: run on an entity of the site's blueprint as it is today, it gives what it gives with the
 * literal standing as the team, and not what it gives with no team.
 */
import type { JqEngine } from '../jq/engine.js';
import { isObject, keyedFromEntries, type JsonValue } from '../model/json.js';
import type { EntityRecord } from '../model/snapshot.js';
import type { TeamDirectory } from '../catalog/teams.js';
import { describeResult } from './differential.js';

/** Ours: entities of the site's blueprint tried per literal; enough to find text that is there. */
const MAX_ENTITIES = 200;

/**
 * The identifier of the first entity that meets `literal` as the team would, or undefined.
 * `withTeam` builds the site's context after the migration with one team (or none) everywhere;
 * `teamValued`, the properties left out with the entity's teams (a mirror of `_team` titles).
 */
export function entityHoldingText(jq: JqEngine, entities: readonly EntityRecord[], withTeam: (team: string | undefined) => JsonValue, expression: string, literal: string, teamValued: readonly string[] = []): string | undefined {
  const run = (input: JsonValue) => JSON.stringify(jq.evaluate(input, expression));
  const blank = withTeam(undefined);
  const asTeam = run(withTeam(literal));
  if (entities.length === 0 || asTeam === run(blank)) return undefined;
  const ownText = ({ properties }: EntityRecord) => (isObject(properties) ? keyedFromEntries(Object.entries(properties).filter(([name]) => !teamValued.includes(name))) : {});
  const inputs = entities.slice(0, MAX_ENTITIES).map((record) => withEntity(blank, { ...record, properties: ownText(record) }));
  jq.prefetch?.({ evaluate: [{ expression, inputs }] });
  const i = inputs.findIndex((input) => run(input) === asTeam);
  return i < 0 ? undefined : entities[i]!.identifier;
}

/**
 * The first entity of the org whose result the migration changes, run as the site's context holding
 * it (`blank`, a context of no team) with its teams read back to titles, then as identifiers: where
 * made-up contexts hold something of the team the org's entity does not (a mirror over a relation
 * pointing elsewhere, a calculation's count of characters), the org's own entities tell what the
 * migration does. `change` is absent when none changes; undefined when no entity holds a team
 * whose identifier is not its title (then the entities cannot tell).
 */
export function entityChanged(jq: JqEngine, directory: TeamDirectory, entities: readonly EntityRecord[], blank: JsonValue, expression: string): { change?: { context: string; before: string; after: string } } | undefined {
  const titleOf = new Map([...directory.byTitle.values()].flatMap((team) => (team.identifier === undefined ? [] : [[team.identifier, team.title] as const])));
  const records = entities.slice(0, MAX_ENTITIES);
  const worlds = records.map((record) => {
    const before = [record.team].flat().filter((value): value is string => typeof value === 'string').map((value) => (directory.byTitle.has(value) ? value : (titleOf.get(value) ?? value)));
    return [before, before.map((title) => directory.byTitle.get(title)?.identifier ?? title)] as const;
  });
  if (!worlds.some(([before, after]) => before.join() !== after.join())) return undefined;
  const inputs = records.flatMap((record, i) => worlds[i]!.map((team) => withEntity(blank, record, team)));
  // Every entity asked at once: one jq request, not one per entity.
  jq.prefetch?.({ evaluate: [{ expression, inputs }] });
  const results = inputs.map((input) => describeResult(jq.evaluate(input, expression)));
  const i = records.findIndex((_, k) => results[2 * k] !== results[2 * k + 1]);
  return i < 0 ? {} : { change: { context: `entity ${JSON.stringify(records[i]!.identifier)} of the org`, before: results[2 * i]!, after: results[2 * i + 1]! } };
}

/** Whether an entity holds the team titled `title` (by title or identifier). */
export const holdsTeam = (directory: TeamDirectory, title: string) => (record: EntityRecord): boolean => [record.team].flat().some((value) => value === title || value === directory.byTitle.get(title)?.identifier);

/** The context with each sample entity in it (worlds.ts builds them of blueprint `sample`) replaced by the org's own, its team values left out. */
function withEntity(context: JsonValue, record: EntityRecord, team: readonly string[] = []): JsonValue {
  if (Array.isArray(context)) return context.map((item) => withEntity(item, record, team));
  if (!isObject(context)) return context;
  if (context.blueprint === 'sample') return { ...record, team: [...team], properties: isObject(record.properties) ? record.properties : {}, relations: isObject(record.relations) ? record.relations : {} } as JsonValue;
  return keyedFromEntries(Object.entries(context).map(([key, value]): [string, JsonValue] => [key, withEntity(value ?? null, record, team)]));
}
