import type { Rule } from './rule.js';
import { plannedDirectOwnership } from './ownership-direct.js';

/**
 * After the migration: a blueprint whose entities carry $team values, with no team inheritance
 * and still no ownership, is one the migration should have given Direct ownership (spec 4.3).
 */
export const missedDirectOwnership: Rule = {
  category: 'ownership-direct',
  check(catalog) {
    if (!catalog.migrationRan) return [];
    return plannedDirectOwnership(catalog).map((draft) => ({
      ...draft,
      reason:
        'The migration should have set Direct ownership on this blueprint (its entities carry $team values and it has no team inheritance) and did not: it has no ownership.',
      suggestion:
        'Set ownership {"type": "Direct"} on the blueprint in the service (builder or API), and ownership = { type = "Direct" } in any Terraform, Pulumi or API copy of it.',
    }));
  },
};
