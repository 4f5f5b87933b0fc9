import type { Catalog } from '../catalog/catalog.js';
import { keyedRecord, isObject, type JsonObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { expressionFinding } from './shared/expression-finding.js';
import { joinPath } from './shared/location.js';
import { actionBlueprint, actionRef, isAutomation, removedRelationsFor, teamPropertiesFor } from './shared/resources.js';
import { searchRuleFinding } from './shared/search-rule-finding.js';
import { jqQueries, searchRules } from './shared/walk.js';

/** The v2 shape keeps inputs under the trigger; older actions keep them at the top. */
export function userInputs(action: JsonObject): { base: string[]; inputs: JsonObject } | undefined {
  const trigger = isObject(action.trigger) ? action.trigger : undefined;
  if (trigger && isObject(trigger.userInputs)) return { base: ['trigger', 'userInputs'], inputs: trigger.userInputs };
  if (isObject(action.userInputs)) return { base: ['userInputs'], inputs: action.userInputs };
  return undefined;
}

/**
 * Any input attribute may be `{jqQuery}` (visible, default, required, dataset values, ...), and
 * entity inputs may filter their dataset on `$team`. Descriptions and titles are prose: skipped.
 */
export const actionUserInput: Rule = {
  category: 'action-user-input',
  check(catalog: Catalog): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const action of catalog.snapshot.actions ?? []) {
      if (isAutomation(action)) continue;
      const found = userInputs(action);
      if (!found) continue;
      const resource = actionRef(action);
      const removedRelations = removedRelationsFor(catalog, actionBlueprint(action));
      const teamProperties = teamPropertiesFor(catalog, actionBlueprint(action));
      const properties = isObject(found.inputs.properties) ? found.inputs.properties : keyedRecord();
      for (const [input, definition] of Object.entries(properties)) {
        if (!isObject(definition)) continue;
        const base = [...found.base, 'properties', input];
        const reported = new Set<string>();
        for (const query of jqQueries(definition, base)) {
          const finding = expressionFinding(catalog, {
            category: 'action-user-input',
            resource,
            location: joinPath(...query.path),
            expression: query.expression,
            subject: `The jqQuery of input "${input}"`,
            removedRelations,
            teamProperties,
          });
          if (finding) {
            findings.push(finding);
            reported.add(finding.location);
          }
        }
        // A dataset filters the entities the input offers: those of the input's own blueprint.
        const datasetRemoved = typeof definition.blueprint === 'string' ? removedRelationsFor(catalog, definition.blueprint) : removedRelations;
        for (const { path, rule } of searchRules(definition.dataset, [...base, 'dataset'])) {
          // A jq-valued rule's expression was judged by the walk above, on its own. The rule adds
          // what the expression alone cannot show: a relation that is removed, or a $team
          // comparison (the jq result must be identifiers, say a literal title list).
          const finding = searchRuleFinding(catalog, {
            category: 'action-user-input',
            resource,
            path,
            rule,
            subject: `The dataset rule of input "${input}"`,
            removedRelations: datasetRemoved,
            ...(typeof definition.blueprint === 'string' && { blueprint: definition.blueprint }),
          });
          if (finding && !reported.has(finding.location)) findings.push(finding);
        }
      }
      // Conditions on the whole form (`required: {jqQuery}`, `order`) live beside `properties`.
      for (const query of jqQueries({ ...found.inputs, properties: null }, found.base)) {
        const finding = expressionFinding(catalog, {
          category: 'action-user-input',
          resource,
          location: joinPath(...query.path),
          expression: query.expression,
          subject: 'The jqQuery of the form',
          removedRelations,
          teamProperties,
        });
        if (finding) findings.push(finding);
      }
    }
    return findings;
  },
};
