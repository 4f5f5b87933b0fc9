import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { relationsOf, teamInheritancePath } from '../catalog/inheritance.js';
import { isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { entityHasRelation, entityHasTeam } from './shared/entities.js';
import { blueprintRef } from '../catalog/resources.js';

/**
 * A `_team` relation without teamInheritance: the migration creates no ownership (spec 4.3,
 * post-migration notes), so the relation's data must be moved with the builder's Migrate data
 * (spec 4.2), which needs Direct ownership first. Once ownership is Direct, the finding stays
 * only while some entity still has the relation set and no $team value, i.e. data still to move.
 * When entities already carry $team, the migration itself sets Direct ownership (ownership-direct),
 * so only the data move remains to say.
 */
export const relationOwnership: Rule = {
  category: 'relation-ownership',
  asksJq: false,
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const [id, relationIds] of catalog.teamRelations) {
      const blueprint = catalog.blueprints.get(id)!;
      if (teamInheritancePath(blueprint) !== undefined) continue;
      // Inherited ownership means teams come over a path; a _team relation beside it is not ownership.
      if (isObject(blueprint.ownership) && blueprint.ownership.type === 'Inherited') continue;
      const hasDirect = isObject(blueprint.ownership) && blueprint.ownership.type === 'Direct';
      const getsDirect = !hasDirect && !isObject(blueprint.ownership) && (catalog.entities.get(id) ?? []).some(entityHasTeam);
      const relations = relationsOf(blueprint);
      for (const relation of relationIds) {
        // With Direct ownership set, the entities tell whether the relation's data still has to move.
        if (!hasDirect && !saysOwner(relation, relations[relation])) {
          findings.push(notOwnershipFinding(judge, blueprint, relation, relations[relation]));
          continue;
        }
        const pending = hasDirect ? entitiesStillToMove(catalog, id, relation) : undefined;
        if (hasDirect && pending === 0) continue;
        const mapping = JSON.stringify({ entity: { team: `.relations.${relation}` } });
        findings.push({
          category: 'relation-ownership',
          resource: blueprintRef(blueprint),
          location: joinPath('relations', relation),
          evidence: JSON.stringify({ [relation]: relations[relation] }),
          reason: getsDirect
            ? `Entities carry $team values, so the migration sets Direct ownership, but teams kept in relation "${relation}" to _team are not moved into it.`
            : !hasDirect
            ? `Teams are kept only in relation "${relation}" to _team and there is no team inheritance, so the migration creates no ownership for this blueprint.`
            : pending === undefined
              ? `Ownership is Direct, but entities were not fetched, so whether some still keep their team only in relation "${relation}" could not be checked.`
              : `Ownership is Direct, but ${pending} entit${pending === 1 ? 'y still keeps its' : 'ies still keep their'} team only in relation "${relation}".${completedMigrationClause(catalog, id)}`,
          suggestion: getsDirect
            ? `After the migration, run the builder's Migrate data on this blueprint with the mapping ${mapping} for the entities that have no $team yet.`
            : hasDirect
            ? `Run the builder's Migrate data on this blueprint with the mapping ${mapping}.`
            : `Set ownership {type: "Direct"} on the blueprint first, then run the builder's Migrate data with the mapping ${mapping}.`,
          rewrite: mapping,
        });
      }
    }
    return findings;
  },
};

/**
 * A relation to `_team` carries ownership only when its name or title says so (`owning_team`,
 * `responsible_team`, `responders`, `owners`, `team`): `applies_to_team` or `ai_discovered_team` relate teams for
 * another reason, and moving them into ownership would give the entities owners they never had.
 */
const OWNER_WORDS = /own|respons|respond|maintain|accountab|steward|^teams?$/i;

function saysOwner(relation: string, definition: JsonValue | undefined): boolean {
  const title = isObject(definition) && typeof definition.title === 'string' ? definition.title : '';
  return OWNER_WORDS.test(relation) || OWNER_WORDS.test(title);
}

/** A relation to `_team` that does not say it is ownership: the migration leaves it; a person decides. */
function notOwnershipFinding(judge: SiteJudge, blueprint: JsonObject, relation: string, definition: JsonValue | undefined): FindingDraft {
  return {
    category: 'relation-ownership',
    resource: blueprintRef(blueprint),
    location: joinPath('relations', relation),
    evidence: JSON.stringify({ [relation]: definition }),
    reason: `Relation "${relation}" to _team is kept as it is by the migration; neither its name nor its title says it holds the owning teams, so nothing needs to move.`,
    suggestion: `Only if "${relation}" holds the blueprint's owning teams: give the blueprint Direct ownership and move its data with the builder's Migrate data. Otherwise nothing to do.`,
    verdict: judge.verdict('unclaimed-team-relation'),
  };
}

/** How many sampled entities have the relation set but no $team; undefined when not fetched. */
function entitiesStillToMove(catalog: Catalog, blueprint: string, relation: string): number | undefined {
  if (!catalog.entitiesFetched) return undefined;
  return (catalog.entities.get(blueprint) ?? []).filter((entity) => entityHasRelation(entity, relation) && !entityHasTeam(entity)).length;
}

/**
 * Issue 25: a data migration the service reports as completed for the blueprint (the live fetch
 * reads `GET /v1/migrations` after the migration): the entities left were added or missed since.
 */
function completedMigrationClause(catalog: Catalog, blueprint: string): string {
  const migrations = catalog.snapshot.migrations?.[blueprint];
  if (!Array.isArray(migrations) || migrations.length === 0) return '';
  const ids = migrations.map((migration) => (isObject(migration) && typeof migration.id === 'string' ? migration.id : undefined)).filter((id): id is string => id !== undefined);
  return ` A data migration for this blueprint completed (${ids.join(', ') || 'the service says so'}); these entities were added or left out since.`;
}
