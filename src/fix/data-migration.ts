import type { Catalog } from '../catalog/catalog.js';
import { relationsOf } from '../catalog/inheritance.js';
import { chunks } from '../chunks.js';
import { compareText } from '../compare-text.js';
import type { JsonValue } from '../model/json.js';
import type { Finding } from '../model/finding.js';
import type { EntityRecord } from '../model/snapshot.js';
import { jsonText, type FixFile } from './fix-kit.js';
import { fileName, uniqueNames } from './kit-names.js';

/** docs/fix-kit.md: a bulk request carries at most 100 entities. */
export const BULK_LIMIT = 100;

/** One blueprint whose teams live only in relations to `_team`: the data-migration step it needs. */
export interface RelationMove {
  blueprint: string;
  /** The blueprint as a file name, apart from every other move's (uniqueNames). */
  name: string;
  relations: string[];
  findings: string[];
  /** The builder's `Migrate data` mapping (docs/fix-kit.md). */
  mapping: { entity: { team: string } };
  /** The same move as the body of `POST /v1/migrations` (docs/live-service.md), which the tool never sends. */
  migrationRequest: MigrationRequest;
  /**
   * Bulk payloads, each ≤ BULK_LIMIT entities, with each entity's team taken from the relation and
   * its title and relations as the snapshot holds them: the service's docs do not say whether an upsert
   * keeps the fields a payload leaves out, so the payload leaves out none it has.
   */
  payloads: { entities: BulkEntity[] }[];
  /** False when this run holds none of the blueprint's entities (a live run reads them only where a finding needs them). */
  entitiesRead: boolean;
}

/**
 * `POST /v1/migrations`: `{sourceBlueprint, mapping: {blueprint, filter?, entity: {identifier, team}}}`.
 * The source and the target are the same blueprint; each entity maps onto itself (identifier), its
 * team taken from the relation, and only entities whose relation holds a value are touched.
 */
interface MigrationRequest {
  sourceBlueprint: string;
  mapping: { blueprint: string; filter: string; entity: { identifier: string; team: string } };
}

/** One entity of a bulk payload: the entity fields the snapshot holds (docs/formats.md: no properties). */
interface BulkEntity {
  identifier: string;
  title?: string;
  relations?: JsonValue;
  team: string[];
}

/** The relation-ownership findings of the org, one move per blueprint. */
export function relationMoves(catalog: Catalog, findings: readonly Finding[]): RelationMove[] {
  const byBlueprint = new Map<string, { relations: string[]; findings: string[] }>();
  for (const finding of findings) {
    if (finding.category !== 'relation-ownership' || finding.resource.type !== 'blueprint') continue;
    const relation = /^relations\.(.+)$/.exec(finding.location)?.[1];
    if (relation === undefined || !(relation in relationsOf(catalog.blueprints.get(finding.resource.identifier)))) continue;
    const move = byBlueprint.get(finding.resource.identifier) ?? { relations: [], findings: [] };
    move.relations.push(relation);
    move.findings.push(finding.id);
    byBlueprint.set(finding.resource.identifier, move);
  }
  const names = uniqueNames([...byBlueprint.keys()].map((key) => ({ key, base: fileName(key) })));
  return [...byBlueprint].sort(([a], [b]) => compareText(a, b)).map(([blueprint, { relations, findings: ids }]) => {
    const entities = (catalog.entities.get(blueprint) ?? []).flatMap((entity) => {
      const team = relationTeams(entity, relations);
      if (team.length === 0) return [];
      const payload: BulkEntity = {
        identifier: entity.identifier,
        ...(typeof entity.title === 'string' && { title: entity.title }),
        ...(entity.relations !== undefined && { relations: entity.relations }),
        team,
      };
      return [payload];
    });
    const entitiesRead = catalog.entities.has(blueprint);
    const team = teamExpression(relations);
    const migrationRequest: MigrationRequest = { sourceBlueprint: blueprint, mapping: { blueprint, filter: relationSetFilter(relations), entity: { identifier: '.identifier', team } } };
    return { blueprint, name: names.get(blueprint)!, relations, findings: ids, mapping: { entity: { team } }, migrationRequest, payloads: chunks(entities, BULK_LIMIT).map((part) => ({ entities: part })), entitiesRead };
  });
}

/** One relation is read as it is (the builder's mapping, docs/fix-kit.md); several are joined into one list of team identifiers. */
function teamExpression(relations: readonly string[]): string {
  if (relations.length === 1) return `.relations.${relations[0]}`;
  return `[${relations.map((r) => `.relations.${r}`).join(', ')}] | flatten | map(select(. != null)) | unique`;
}

/** jq: the entity's relation(s) hold a team (a value, or a non-empty list). */
function relationSetFilter(relations: readonly string[]): string {
  return relations.map((r) => `((.relations.${r} // []) | if type == "array" then length > 0 else true end)`).join(' or ');
}

/** The `_team` identifiers an entity's relations hold, in order, without repeats. */
export function relationTeams(entity: EntityRecord, relations: readonly string[]): string[] {
  const values = relations.flatMap((relation) => {
    const value = (entity.relations as Record<string, JsonValue> | undefined)?.[relation];
    return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  });
  return [...new Set(values.filter((value): value is string => typeof value === 'string' && value !== ''))];
}

/** A move's bulk file `index` (from 0), in `data-migration/bulk/`: `<name>-001.json` on. */
export const bulkName = (name: string, index: number): string => `${name}-${String(index + 1).padStart(3, '0')}.json`;

/** `data-migration/<blueprint>.json`, `api/<blueprint>.json` and `bulk/<blueprint>-NNN.json` for each move. */
export function dataMigrationFiles(moves: readonly RelationMove[]): FixFile[] {
  return moves.flatMap((move) => {
    const name = move.name;
    const mapping: FixFile = { path: `data-migration/${name}.json`, kind: 'data-migration', findings: move.findings, content: jsonText(move.mapping) };
    const request: FixFile = { path: `data-migration/api/${name}.json`, kind: 'data-migration', findings: move.findings, content: jsonText(move.migrationRequest) };
    const bulk = move.payloads.map((payload, index): FixFile => ({
      path: `data-migration/bulk/${bulkName(name, index)}`,
      kind: 'bulk-upsert',
      findings: move.findings,
      content: jsonText(payload),
    }));
    return [mapping, request, ...bulk];
  });
}
