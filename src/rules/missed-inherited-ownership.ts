import { migrationRanFor, type Catalog } from '../catalog/catalog.js';
import { deadInheritance, teamInheritancePath } from '../catalog/inheritance.js';
import { isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { plannedInheritedOwnership } from './ownership-inherited.js';
import { blueprintRef } from '../catalog/resources.js';

/**
 * After the migration: `teamInheritance` should have become `ownership: {type: Inherited, path:
 * <same path>}` and gone (spec 4.3). Seen in the org itself while teamInheritance is left (what was
 * done instead, if anything, is said) or, with `--since`, in the previous report's plan once it is
 * gone: then the ownership must be Inherited over the planned path.
 */
export const missedInheritedOwnership: Rule = {
  category: 'ownership-inherited',
  check(catalog) {
    // Per blueprint: in a half-way org, one that already holds ownership is judged by itself.
    const ran = (id: string) => migrationRanFor(catalog, id);
    // Issue 39: teamInheritance beside the right ownership is ignored by the service: a note
    // (catalog/migration-state.ts, "dead configuration"), not a step.
    const findings = plannedInheritedOwnership(catalog)
      .filter((draft) => ran(draft.resource.identifier) && !deadInheritance(catalog.blueprints.get(draft.resource.identifier)))
      .map((draft) => leftInheritance(catalog, draft));
    for (const [id, planned] of catalog.plan?.ownership ?? []) {
      const blueprint = catalog.blueprints.get(id);
      if (planned.type !== 'Inherited' || !blueprint || !ran(id) || teamInheritancePath(blueprint) !== undefined) continue;
      const ownership = blueprint.ownership;
      if (isObject(ownership) && ownership.type === 'Inherited' && ownership.path === planned.path) continue;
      const expected = JSON.stringify(planned);
      findings.push({
        category: 'ownership-inherited',
        // The location the previous report used, so the same id: progress counts it open, not fixed.
        resource: blueprintRef(blueprint),
        location: 'teamInheritance.path',
        evidence: `ownership: ${JSON.stringify(ownership ?? null)}`,
        reason: `The migration should have replaced teamInheritance over "${planned.path}" with ownership ${expected}; teamInheritance is gone, but the blueprint has ${isObject(ownership) ? `ownership ${JSON.stringify(ownership)}` : 'no ownership'}.`,
        suggestion: `Set ownership ${expected} on the blueprint in the service, and in any Terraform, Pulumi or API copy of it.`,
        rewrite: JSON.stringify({ ownership: planned }),
      });
    }
    return findings;
  },
};

function leftInheritance(catalog: Catalog, draft: FindingDraft): FindingDraft {
  const path = catalog.inheritance.get(draft.resource.identifier)?.path ?? '';
  const ownership = catalog.blueprints.get(draft.resource.identifier)?.ownership;
  const expected = JSON.stringify({ type: 'Inherited', path });
  const what = !isObject(ownership) ? 'it has no ownership and still has teamInheritance' : `it has ownership ${JSON.stringify(ownership)} instead, and still has teamInheritance`;
  return {
    ...draft,
    evidence: isObject(ownership) ? `${draft.evidence}; ownership: ${JSON.stringify(ownership)}` : draft.evidence,
    reason: `The migration should have replaced teamInheritance over "${path}" with ownership ${expected} and removed teamInheritance; ${what}.`,
    suggestion: `Set ownership ${expected} and remove teamInheritance, in the service and in any Terraform, Pulumi or API copy of the blueprint.`,
  };
}
