/**
 * Issue 39, item 7: after the migration, what the org's own entities hold decides. A literal the
 * expression meets in them outside their team values (a description, a tier) is their text, not a
 * team: run on an entity of the site's blueprint as it is today, it gives what it gives with the
 * literal standing as the team, and not what it gives with no team.
 */
import type { JqEngine } from '../jq/engine.js';
import { isObject, keyedFromEntries, type JsonValue } from '../model/json.js';
import type { EntityRecord } from '../model/snapshot.js';

/** Ours: entities of the site's blueprint tried per literal; enough to find text that is there. */
const MAX_ENTITIES = 200;

/**
 * The identifier of the first entity that meets `literal` as the team would, or undefined.
 * `withTeam` builds the site's context after the migration with one team (or none) everywhere.
 */
export function entityHoldingText(jq: JqEngine, entities: readonly EntityRecord[], withTeam: (team: string | undefined) => JsonValue, expression: string, literal: string): string | undefined {
  const run = (input: JsonValue) => JSON.stringify(jq.evaluate(input, expression));
  const blank = withTeam(undefined);
  const asTeam = run(withTeam(literal));
  if (entities.length === 0 || asTeam === run(blank)) return undefined;
  const inputs = entities.slice(0, MAX_ENTITIES).map((record) => withEntity(blank, record));
  jq.prefetch?.({ evaluate: [{ expression, inputs }] });
  const i = inputs.findIndex((input) => run(input) === asTeam);
  return i < 0 ? undefined : entities[i]!.identifier;
}

/** The context with each sample entity in it (worlds.ts builds them of blueprint `sample`) replaced by the org's own, its team values left out. */
function withEntity(context: JsonValue, record: EntityRecord): JsonValue {
  if (Array.isArray(context)) return context.map((item) => withEntity(item, record));
  if (!isObject(context)) return context;
  if (context.blueprint === 'sample') return { ...record, team: [], properties: isObject(record.properties) ? record.properties : {}, relations: isObject(record.relations) ? record.relations : {} } as JsonValue;
  return keyedFromEntries(Object.entries(context).map(([key, value]): [string, JsonValue] => [key, withEntity(value ?? null, record)]));
}
