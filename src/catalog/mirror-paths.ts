import { keyedRecord, isObject, type JsonObject } from '../model/json.js';
import { relationsOf } from './inheritance.js';

/**
 * What the migration does to a mirror property's path: chained relations ending at a property or
 * meta property (`service.$team`, `$team.$identifier`, `owning_team.$title`).
 */
export type MirrorPathEffect =
  /** Ends at `$team`: its values are team values, titles before and identifiers after. */
  | { kind: 'team-values' }
  /** Goes on from `$team` to another property of the team (`$team.slack`): it reads the teams themselves. */
  | { kind: 'team-entity'; property: string }
  /**
   * Hops over a relation the migration removes: afterwards the path points at nothing. `rewrite`
   * is the path over `$team`: `x.owning_team.$identifier` named the teams' identifiers, which is
   * what `x.$team` holds afterwards; `x.owning_team.$title` becomes `x.$team.$title`.
   */
  | { kind: 'removed-relation'; relation: string; blueprint: string; rewrite: string }
  | { kind: 'unaffected' };

export interface MirrorDefinition {
  id: string;
  title?: string;
  path: string;
}

/** The mirror properties of a blueprint that have a string path. */
export function mirrorsOf(blueprint: JsonObject): MirrorDefinition[] {
  const mirrors = isObject(blueprint.mirrorProperties) ? blueprint.mirrorProperties : keyedRecord();
  const result: MirrorDefinition[] = [];
  for (const [id, mirror] of Object.entries(mirrors)) {
    if (!isObject(mirror) || typeof mirror.path !== 'string') continue;
    result.push(typeof mirror.title === 'string' ? { id, title: mirror.title, path: mirror.path } : { id, path: mirror.path });
  }
  return result;
}

/**
 * Follow `path` from `blueprint` hop by hop. The walk is bounded by the number of segments; a hop
 * whose relation or target is unknown ends it (the service validates paths; we only judge what
 * we can see).
 */
export function mirrorPathEffect(
  blueprint: string,
  path: string,
  blueprints: ReadonlyMap<string, JsonObject>,
  removedRelations: ReadonlyMap<string, ReadonlySet<string>>,
): MirrorPathEffect {
  const segments = path.split('.');
  const last = segments.length - 1;
  let current = blueprint;
  for (const [index, segment] of segments.entries()) {
    if (segment === '$team') {
      const rest = segments.slice(index + 1);
      if (rest.length === 0) return { kind: 'team-values' };
      // The team entities' own identifiers: identifiers already, before the migration and after (issue 22).
      if (rest.length === 1 && rest[0] === '$identifier') return { kind: 'unaffected' };
      return { kind: 'team-entity', property: rest.join('.') };
    }
    if (index === last) break;
    if (removedRelations.get(current)?.has(segment)) {
      const rest = segments.slice(index + 1);
      // The relation's `_team` entities are what `$team` points at afterwards: the same hop, renamed.
      const rewrite = [...segments.slice(0, index), '$team', ...(rest.length === 1 && rest[0] === '$identifier' ? [] : rest)].join('.');
      return { kind: 'removed-relation', relation: segment, blueprint: current, rewrite };
    }
    const target = relationsOf(blueprints.get(current))[segment]?.target;
    if (typeof target !== 'string') break;
    current = target;
  }
  return { kind: 'unaffected' };
}
