import { migrationRanFor, type Catalog } from '../catalog/catalog.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { blueprintRef } from '../catalog/resources.js';

/** Spec 4.3, beta case: inheritance over a direct `_team` relation → relation removed, Direct. */
export const teamRelationRemoved: Rule = {
  category: 'team-relation-removed',
  asksJq: false,
  // Once the migration has run, a relation it should have removed is a deviation (missed-team-relation-removal.ts).
  check: (catalog) => plannedTeamRelationRemovals(catalog).filter((draft) => !migrationRanFor(catalog, draft.resource.identifier)),
};

/** `_team` relations that team inheritance goes over: the migration removes them (beta orgs). */
export function plannedTeamRelationRemovals(catalog: Catalog): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const [id, resolution] of catalog.inheritance) {
    if (resolution.kind !== 'team-relation') continue;
    const blueprint = catalog.blueprints.get(id)!;
    findings.push({
      category: 'team-relation-removed',
      resource: blueprintRef(blueprint),
      location: joinPath('relations', resolution.relation),
      evidence: JSON.stringify({ relations: { [resolution.relation]: { target: '_team' } }, teamInheritance: { path: resolution.path } }),
      reason: `Team inheritance goes over "${resolution.relation}", a direct relation to _team, so the migration removes that relation and sets Direct ownership.`,
      suggestion: `Nothing to do in the service; in external copies delete relation "${resolution.relation}", drop teamInheritance and add ownership = { type = "Direct" }. Expressions reading .relations.${resolution.relation} must read .team instead (see manual work).`,
      rewrite: JSON.stringify({ ownership: { type: 'Direct' } }),
    });
  }
  return findings;
}
