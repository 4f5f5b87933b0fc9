import { migrationRanFor, type Catalog } from '../catalog/catalog.js';
import { teamInheritancePath } from '../catalog/inheritance.js';
import { isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { entityHasTeam } from './shared/entities.js';
import { blueprintRef } from '../catalog/resources.js';

/** Spec 4.3, "Migrated automatically": entities with $team values and no inheritance → Direct. */
export const ownershipDirect: Rule = {
  category: 'ownership-direct',
  asksJq: false,
  // Once the migration has run (for the blueprint), what it left undone is a deviation (missed-direct-ownership.ts).
  check: (catalog) => plannedDirectOwnership(catalog).filter((draft) => !migrationRanFor(catalog, draft.resource.identifier)),
};

/** Blueprints the migration gives Direct ownership, whether or not it has run. */
export function plannedDirectOwnership(catalog: Catalog): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const [id, blueprint] of catalog.blueprints) {
    // System blueprints: `team` on _user means membership, and _team is the teams themselves.
    if (id.startsWith('_')) continue;
    // `ownership: null` (as the API may send it) is no ownership: only an object counts.
    if (teamInheritancePath(blueprint) !== undefined || isObject(blueprint.ownership)) continue;
    const owned = (catalog.entities.get(id) ?? []).filter(entityHasTeam);
    if (owned.length === 0) continue;
    const sample = owned.slice(0, 3).map((e) => `${e.identifier}: ${JSON.stringify(e.team)}`);
    findings.push({
      category: 'ownership-direct',
      resource: blueprintRef(blueprint),
      location: 'ownership',
      evidence: `no teamInheritance; entities with $team: ${sample.join('; ')}${owned.length > 3 ? '; …' : ''}`,
      reason: 'Entities of this blueprint carry $team values and it has no team inheritance, so the migration sets Direct ownership.',
      suggestion: 'Nothing to do in the service; in Terraform, Pulumi or API copies of this blueprint add ownership = { type = "Direct" }.',
      rewrite: JSON.stringify({ ownership: { type: 'Direct' } }),
    });
  }
  return findings;
}
