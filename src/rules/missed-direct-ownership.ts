import { migrationRanFor } from '../catalog/catalog.js';
import { teamInheritancePath } from '../catalog/inheritance.js';
import { isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { plannedDirectOwnership } from './ownership-direct.js';
import { blueprintRef } from '../catalog/resources.js';

const SUGGESTION =
  'Set ownership {"type": "Direct"} on the blueprint in the service (builder or API), and ownership = { type = "Direct" } in any Terraform, Pulumi or API copy of it.';

/**
 * After the migration: a blueprint that should have Direct ownership (spec 4.3) and has none.
 * Seen in the org itself (its entities carry $team values, no inheritance, no ownership) or, with
 * `--since`, in the plan the previous report gave (the ownership may have been set otherwise).
 */
export const missedDirectOwnership: Rule = {
  category: 'ownership-direct',
  check(catalog) {
    // Per blueprint: in a half-way org, one that already holds ownership is judged by itself.
    const ran = (id: string) => migrationRanFor(catalog, id);
    const findings: FindingDraft[] = plannedDirectOwnership(catalog).filter((draft) => ran(draft.resource.identifier)).map((draft) => ({
      ...draft,
      reason:
        'The migration should have set Direct ownership on this blueprint (its entities carry $team values and it has no team inheritance) and did not: it has no ownership.',
      suggestion: SUGGESTION,
    }));
    const seen = new Set(findings.map((finding) => finding.resource.identifier));
    for (const [id, planned] of catalog.plan?.ownership ?? []) {
      const blueprint = catalog.blueprints.get(id);
      // A blueprint deleted since, or one still inheriting (missed-inherited-ownership says it), is not this rule's.
      if (planned.type !== 'Direct' || !blueprint || !ran(id) || seen.has(id) || teamInheritancePath(blueprint) !== undefined) continue;
      const ownership = blueprint.ownership;
      if (isObject(ownership) && ownership.type === 'Direct') continue;
      findings.push({
        category: 'ownership-direct',
        resource: blueprintRef(blueprint),
        location: 'ownership',
        evidence: `ownership: ${JSON.stringify(ownership ?? null)}`,
        reason: `The previous report planned Direct ownership for this blueprint; the migration should have set it and did not: it has ${isObject(ownership) ? `ownership ${JSON.stringify(ownership)}` : 'no ownership'}.`,
        suggestion: SUGGESTION,
        rewrite: JSON.stringify({ ownership: { type: 'Direct' } }),
      });
    }
    return findings;
  },
};
