import { isObject } from '../model/json.js';
import type { Rule } from './rule.js';
import { plannedInheritedOwnership } from './ownership-inherited.js';

/**
 * After the migration: a `teamInheritance` still on a blueprint is one the migration should have
 * replaced with `ownership: {type: Inherited, path: <same path>}` and removed (spec 4.3). What it
 * did instead (nothing, the wrong ownership, or the right one with the old setting left) is said.
 */
export const missedInheritedOwnership: Rule = {
  category: 'ownership-inherited',
  check(catalog) {
    if (!catalog.migrationRan) return [];
    return plannedInheritedOwnership(catalog).map((draft) => {
      const path = catalog.inheritance.get(draft.resource.identifier)?.path ?? '';
      const ownership = catalog.blueprints.get(draft.resource.identifier)?.ownership;
      const expected = JSON.stringify({ type: 'Inherited', path });
      const done = isObject(ownership) && ownership.type === 'Inherited' && ownership.path === path;
      const what = !isObject(ownership)
        ? 'it has no ownership and still has teamInheritance'
        : done
          ? 'it has that ownership, but teamInheritance was left beside it'
          : `it has ownership ${JSON.stringify(ownership)} instead, and still has teamInheritance`;
      return {
        ...draft,
        evidence: isObject(ownership) ? `${draft.evidence}; ownership: ${JSON.stringify(ownership)}` : draft.evidence,
        reason: `The migration should have replaced teamInheritance over "${path}" with ownership ${expected} and removed teamInheritance; ${what}.`,
        suggestion: done
          ? 'Remove teamInheritance from the blueprint in the service and in any Terraform, Pulumi or API copy of it.'
          : `Set ownership ${expected} and remove teamInheritance, in the service and in any Terraform, Pulumi or API copy of the blueprint.`,
      };
    });
  },
};
