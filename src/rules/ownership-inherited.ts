import { migrationRanFor, type Catalog } from '../catalog/catalog.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { blueprintRef } from '../catalog/resources.js';

/** Spec 4.3: teamInheritance {path} → ownership {type: Inherited, path}, teamInheritance removed. */
export const ownershipInherited: Rule = {
  category: 'ownership-inherited',
  asksJq: false,
  // Once the migration has run, a teamInheritance left is a deviation (missed-inherited-ownership.ts).
  check: (catalog) => plannedInheritedOwnership(catalog).filter((draft) => !migrationRanFor(catalog, draft.resource.identifier)),
};

/** Blueprints whose teamInheritance the migration turns into Inherited ownership. */
export function plannedInheritedOwnership(catalog: Catalog): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const [id, resolution] of catalog.inheritance) {
    if (resolution.kind === 'team-relation') continue; // team-relation-removed covers it
    const blueprint = catalog.blueprints.get(id)!;
    const finding: FindingDraft = {
      category: 'ownership-inherited',
      resource: blueprintRef(blueprint),
      location: 'teamInheritance.path',
      evidence: JSON.stringify({ teamInheritance: { path: resolution.path } }),
      reason: `The migration replaces teamInheritance over "${resolution.path}" with Inherited ownership over the same path.`,
      suggestion: `Nothing to do in the service; in external copies replace teamInheritance with ownership = { type = "Inherited", path = "${resolution.path}" }.`,
      rewrite: JSON.stringify({ ownership: { type: 'Inherited', path: resolution.path } }),
    };
    const problems = resolution.kind === 'unresolved' ? [resolution.problem] : resolution.problems;
    if (problems.length > 0) finding.note = `The path may not carry ownership: ${problems.join('; ')}.`;
    if (resolution.kind === 'unresolved' && resolution.fixedPath !== undefined) {
      const fixed = JSON.stringify({ ownership: { type: 'Inherited', path: resolution.fixedPath } });
      finding.note += ` Inherit over "${resolution.fixedPath}" instead, once its target has Direct ownership: ${fixed}.`;
    }
    findings.push(finding);
  }
  return findings;
}
