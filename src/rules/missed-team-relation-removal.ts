import { migrationRanFor } from '../catalog/catalog.js';
import { relationsOf } from '../catalog/inheritance.js';
import { isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { blueprintRef } from '../catalog/resources.js';
import { plannedTeamRelationRemovals } from './team-relation-removed.js';

const migrateData = (relation: string) => JSON.stringify({ entity: { team: `.relations.${relation}` } });

/**
 * After the migration (beta orgs): team inheritance over a direct relation to `_team` should have
 * become Direct ownership, the relation removed (spec 4.3). Seen in the org while teamInheritance
 * is left or, with `--since`, from the previous report's plan once it is gone: the relation must be
 * gone and ownership Direct.
 */
export const missedTeamRelationRemoval: Rule = {
  category: 'team-relation-removed',
  check(catalog) {
    // Per blueprint: in a half-way org, one that already holds ownership is judged by itself.
    const ran = (id: string) => migrationRanFor(catalog, id);
    const findings: FindingDraft[] = plannedTeamRelationRemovals(catalog).filter((draft) => ran(draft.resource.identifier)).map((draft) => {
      const resolution = catalog.inheritance.get(draft.resource.identifier);
      const relation = resolution?.kind === 'team-relation' ? resolution.relation : '';
      const direct = isDirect(catalog.blueprints.get(draft.resource.identifier)?.ownership);
      return {
        ...draft,
        reason:
          `The migration should have removed relation "${relation}" to _team, dropped the teamInheritance over it and set Direct ownership; ` +
          `the relation and teamInheritance are still there${direct ? '' : ' and the blueprint has no Direct ownership'}.`,
        suggestion:
          `${direct ? '' : 'Set ownership {"type": "Direct"}, '}run the builder's Migrate data with the mapping ${migrateData(relation)} ` +
          `for entities without $team, then delete relation "${relation}" and teamInheritance, in the service and in any Terraform, Pulumi or API copy.`,
      };
    });
    const seen = new Set(findings.map((finding) => finding.resource.identifier));
    for (const [id, relation] of catalog.plan?.removedRelations ?? []) {
      const blueprint = catalog.blueprints.get(id);
      if (!blueprint || !ran(id) || seen.has(id)) continue;
      const kept = relation in relationsOf(blueprint);
      const direct = isDirect(blueprint.ownership);
      if (!kept && direct) continue;
      const left = [kept ? `relation "${relation}" is still there` : '', direct ? '' : 'the blueprint has no Direct ownership'].filter(Boolean).join(' and ');
      findings.push({
        category: 'team-relation-removed',
        resource: blueprintRef(blueprint),
        location: joinPath('relations', relation),
        evidence: JSON.stringify({ relations: kept ? { [relation]: relationsOf(blueprint)[relation] } : {}, ownership: blueprint.ownership ?? null }),
        reason: `The previous report planned the removal of relation "${relation}" to _team with Direct ownership in its place; the migration did not finish it: ${left}.`,
        suggestion:
          `${direct ? '' : 'Set ownership {"type": "Direct"}, '}${kept ? `run the builder's Migrate data with the mapping ${migrateData(relation)} for entities without $team, then delete relation "${relation}", ` : ''}` +
          'in the service and in any Terraform, Pulumi or API copy.',
        rewrite: JSON.stringify({ ownership: { type: 'Direct' } }),
      });
    }
    return findings;
  },
};

const isDirect = (ownership: unknown) => isObject(ownership) && ownership.type === 'Direct';
