import type { MigrationPlan, PlannedOwnership } from '../catalog/migration-state.js';
import { isObject } from '../model/json.js';
import { parsedJson } from '../parse-json.js';
import type { PreviousReport } from './read-previous-report.js';

/**
 * The migration's automatic part as a previous report listed it: its ownership findings carry the
 * ownership to set (`rewrite`) and its team-relation-removed findings the relation (`evidence`),
 * both written by this tool. A value that does not parse is left out: it cannot be checked.
 */
export function migrationPlanOf(previous: PreviousReport): MigrationPlan {
  const ownership = new Map<string, PlannedOwnership>();
  const removedRelations = new Map<string, string>();
  for (const finding of previous.findings) {
    if (finding.resource.type !== 'blueprint') continue;
    const blueprint = finding.resource.identifier;
    if (finding.category === 'ownership-direct' || finding.category === 'ownership-inherited') {
      const planned = plannedOwnership(parse(finding.rewrite));
      if (planned) ownership.set(blueprint, planned);
    } else if (finding.category === 'team-relation-removed') {
      const evidence = parse(finding.evidence);
      const relation = isObject(evidence) && isObject(evidence.relations) ? Object.keys(evidence.relations)[0] : undefined;
      if (relation !== undefined) removedRelations.set(blueprint, relation);
    }
  }
  return { ownership, removedRelations };
}

function plannedOwnership(rewrite: unknown): PlannedOwnership | undefined {
  const ownership = isObject(rewrite) ? rewrite.ownership : undefined;
  if (!isObject(ownership)) return undefined;
  if (ownership.type === 'Direct') return { type: 'Direct' };
  if (ownership.type === 'Inherited' && typeof ownership.path === 'string') return { type: 'Inherited', path: ownership.path };
  return undefined;
}

/** Not our JSON: nothing planned can be read from it. */
const parse = (text: unknown): unknown => (typeof text === 'string' ? parsedJson(text) : undefined);
