import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { keyedRecord, asString, isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { blueprintRef, removedRelationsFor } from '../catalog/resources.js';

/** Calculations run on the entity, so `.team` is the team meta property itself. */
export const calculationProperty: Rule = {
  category: 'calculation-property',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const [id, blueprint] of catalog.blueprints) {
      const calculations = isObject(blueprint.calculationProperties) ? blueprint.calculationProperties : keyedRecord();
      for (const [property, definition] of Object.entries(calculations)) {
        const calculation = isObject(definition) ? asString(definition.calculation) : undefined;
        if (calculation === undefined) continue;
        const finding = judge.expression({
          category: 'calculation-property',
          resource: blueprintRef(blueprint),
          location: joinPath('calculationProperties', property, 'calculation'),
          expression: calculation,
          subject: `Calculation property "${property}"`,
          removedRelations: removedRelationsFor(catalog, id),
          teamProperties: judge.teamProperties(id),
          blueprint: id,
        });
        if (!finding) continue;
        // What the migration does to this blueprint's own entities (docs/formats.md, the report impact);
        // a plan's verdicts are made up, so it plans them for every calculation (src/jq/prefetch-rules.ts).
        const entities = finding.verdict === 'unaffected' && !catalog.jq?.plansOnly ? undefined : judge.entityImpact(id, calculation, removedRelationsFor(catalog, id));
        findings.push(entities ? { ...finding, impact: { ...finding.impact, entities } } : finding);
      }
      // An aggregation property computes over the entities of its target that its query finds.
      const aggregations = isObject(blueprint.aggregationProperties) ? blueprint.aggregationProperties : keyedRecord();
      for (const [property, definition] of Object.entries(aggregations)) {
        if (!isObject(definition) || !isObject(definition.query)) continue;
        const target = asString(definition.target);
        const site = {
          category: 'calculation-property' as const,
          resource: blueprintRef(blueprint),
          subject: `The query of aggregation property "${property}"`,
          removedRelations: removedRelationsFor(catalog, target),
          ...(target !== undefined && { blueprint: target, teamProperties: judge.teamProperties(target) }),
        };
        findings.push(...judge.searchQuery(site, definition.query, ['aggregationProperties', property, 'query']));
      }
    }
    return findings;
  },
};
