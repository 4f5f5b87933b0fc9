import { isObject } from '../model/json.js';
import type { Rule } from './rule.js';
import { plannedTeamRelationRemovals } from './team-relation-removed.js';

/**
 * After the migration: team inheritance still going over a direct relation to `_team` (the beta
 * case) means the migration did not remove that relation nor set Direct ownership (spec 4.3).
 */
export const missedTeamRelationRemoval: Rule = {
  category: 'team-relation-removed',
  check(catalog) {
    if (!catalog.migrationRan) return [];
    return plannedTeamRelationRemovals(catalog).map((draft) => {
      const resolution = catalog.inheritance.get(draft.resource.identifier);
      const relation = resolution?.kind === 'team-relation' ? resolution.relation : '';
      const ownership = catalog.blueprints.get(draft.resource.identifier)?.ownership;
      const direct = isObject(ownership) && ownership.type === 'Direct';
      return {
        ...draft,
        reason:
          `The migration should have removed relation "${relation}" to _team, dropped the teamInheritance over it and set Direct ownership; ` +
          `the relation and teamInheritance are still there${direct ? '' : ' and the blueprint has no Direct ownership'}.`,
        suggestion:
          `${direct ? '' : 'Set ownership {"type": "Direct"}, '}run the builder's Migrate data with the mapping ${JSON.stringify({ entity: { team: `.relations.${relation}` } })} ` +
          `for entities without $team, then delete relation "${relation}" and teamInheritance, in the service and in any Terraform, Pulumi or API copy.`,
      };
    });
  },
};
