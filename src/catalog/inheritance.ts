import { keyedRecord, isObject, type JsonObject } from '../model/json.js';
import { TEAM_BLUEPRINT } from '../model/snapshot.js';

export interface InheritanceHop {
  relation: string;
  from: string;
  to: string;
  many: boolean;
}

/** How a blueprint's `teamInheritance.path` resolves, hop by hop over relations. */
export type InheritanceResolution =
  /** The path is one relation straight to `_team`: the beta case, where the relation is removed. */
  | { kind: 'team-relation'; path: string; relation: string }
  /** The path reaches another blueprint: ownership becomes Inherited over the same path. */
  | { kind: 'inherited'; path: string; hops: InheritanceHop[]; target: string; problems: string[] }
  /**
   * The path could not be followed (missing relation, unknown blueprint, a cycle). When it only
   * overshoots, ending with a hop to `_team`, `fixedPath` is the path without that hop: the
   * blueprint it reaches owns its teams, so ownership is inherited from there.
   */
  | { kind: 'unresolved'; path: string; hops: InheritanceHop[]; problem: string; fixedPath?: string };

export function relationsOf(blueprint: JsonObject | undefined): Record<string, JsonObject> {
  const relations = blueprint?.relations;
  const result = keyedRecord<JsonObject>();
  if (!isObject(relations)) return result;
  for (const [id, relation] of Object.entries(relations)) if (isObject(relation)) result[id] = relation;
  return result;
}

/** The inheritance path; an empty `teamInheritance: {}` (no path, as real payloads carry it) is none. */
export function teamInheritancePath(blueprint: JsonObject): string | undefined {
  const inheritance = blueprint.teamInheritance;
  return isObject(inheritance) && typeof inheritance.path === 'string' && inheritance.path !== '' ? inheritance.path : undefined;
}

/**
 * Said only when an empty `teamInheritance` matters: the blueprint has relations to `_team`,
 * which inheritance over them would have removed; without a path they are kept.
 */
export function emptyInheritanceNote(blueprint: JsonObject): string | undefined {
  const inheritance = blueprint.teamInheritance;
  // A path of another type is a misfit of its own, noted as such.
  if (!isObject(inheritance) || (inheritance.path != null && inheritance.path !== '')) return undefined;
  const teamRelations = Object.entries(relationsOf(blueprint))
    .filter(([, relation]) => relation.target === TEAM_BLUEPRINT)
    .map(([id]) => JSON.stringify(id));
  if (teamRelations.length === 0) return undefined;
  return `has no path, so it is read as no inheritance: relation ${teamRelations.join(', ')} to ${TEAM_BLUEPRINT} is taken as an ordinary relation the migration keeps; give the path if the blueprint inherits its teams over it`;
}

/**
 * Follow `path` from `start`. Every step is bounded by the number of hops in the path, and a
 * blueprint seen twice is reported as a cycle, so a malformed org can never hang the analysis.
 */
export function resolveInheritance(
  start: string,
  path: string,
  blueprints: ReadonlyMap<string, JsonObject>,
  teamBlueprint: string,
): InheritanceResolution {
  const names = path.split('.');
  const hops: InheritanceHop[] = [];
  const seen = new Set<string>([start]);
  let current = start;
  for (const [index, name] of names.entries()) {
    const relation = relationsOf(blueprints.get(current))[name];
    if (!relation) {
      return { kind: 'unresolved', path, hops, problem: `blueprint "${current}" has no relation "${name}"` };
    }
    const target = typeof relation.target === 'string' ? relation.target : '';
    const hop = { relation: name, from: current, to: target, many: relation.many === true };
    hops.push(hop);
    if (target === teamBlueprint) {
      if (names.length === 1) return { kind: 'team-relation', path, relation: name };
      if (index === names.length - 1) {
        const fixedPath = names.slice(0, -1).join('.');
        return {
          kind: 'unresolved',
          path,
          hops,
          problem: `the path ends with "${name}", a relation to "${teamBlueprint}", so it names teams instead of the blueprint that owns them`,
          fixedPath,
        };
      }
      return { kind: 'unresolved', path, hops, problem: `hop "${name}" reaches "${teamBlueprint}" before the path ends` };
    }
    if (!blueprints.has(target)) {
      return { kind: 'unresolved', path, hops, problem: `relation "${name}" targets unknown blueprint "${target}"` };
    }
    if (seen.has(target)) {
      return { kind: 'unresolved', path, hops, problem: `the path returns to blueprint "${target}" (a cycle)` };
    }
    seen.add(target);
    current = target;
  }
  const problems: string[] = [];
  for (const hop of hops) {
    if (hop.many) problems.push(`hop "${hop.relation}" is a many relation; ownership can only be inherited over single relations`);
  }
  const targetBlueprint = blueprints.get(current);
  if (targetBlueprint && teamInheritancePath(targetBlueprint) !== undefined) {
    problems.push(`target blueprint "${current}" inherits its own teams; ownership must be Direct on the target`);
  }
  return { kind: 'inherited', path, hops, target: current, problems };
}

/**
 * Issue 39: `teamInheritance` left beside `ownership: {type: "Inherited"}` over the same path. The
 * service reads only `ownership`, so the old field is dead configuration: the path it names, or undefined.
 */
export function deadInheritance(blueprint: JsonObject | undefined): string | undefined {
  const path = blueprint ? teamInheritancePath(blueprint) : undefined;
  const ownership = blueprint?.ownership;
  return path !== undefined && isObject(ownership) && ownership.type === 'Inherited' && ownership.path === path ? path : undefined;
}
