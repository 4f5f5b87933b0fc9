import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { keyedRecord, isObject, type JsonObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { actionBlueprint, actionRef, createsEntity, isAutomation, removedRelationsFor } from '../catalog/resources.js';
import { jqQueries, searchRules } from '../catalog/walk.js';

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
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const action of catalog.snapshot.actions ?? []) {
      if (isAutomation(action)) continue;
      const found = userInputs(action);
      if (!found) continue;
      const resource = actionRef(action);
      const blueprint = actionBlueprint(action);
      const removedRelations = removedRelationsFor(catalog, blueprint);
      // A CREATE action's form is filled before its entity exists: its jq sees an empty one.
      const sample = createsEntity(action) ? ('create-input' as const) : ('user-input' as const);
      const onBlueprint = blueprint !== undefined ? { blueprint } : {};
      const teamProperties = judge.teamProperties(blueprint);
      const properties = isObject(found.inputs.properties) ? found.inputs.properties : keyedRecord();
      // Issue 29: inputs that hold teams; other jq of the form that reads them reads team values.
      const teamInputs = judge.teamInputsOf(properties);
      for (const [input, definition] of Object.entries(properties)) {
        if (!isObject(definition)) continue;
        const base = [...found.base, 'properties', input];
        const teamTyped = teamInputs.get(input);
        // A team-typed input's default is a team value (a `_user` input's default is a person).
        const teamDefault = teamTyped !== undefined && teamTyped.kind !== '_user';
        if (teamDefault) {
          const names = judge.literalTeamValues(definition.default);
          const literal = names && judge.literalTeam({ category: 'action-user-input', resource, location: joinPath(...base, 'default'), subject: `The default of input "${input}"`, sets: `input "${input}" (it holds teams)` }, definition.default as string | string[], names);
          if (literal) findings.push(literal);
        }
        // A dataset filters the entities the input offers: those of the input's own blueprint.
        // A rule that compares team values is judged as the service matches it, its jq value
        // with it (issue 29); any other jq of the input is judged on its own below.
        const datasetRemoved = typeof definition.blueprint === 'string' ? removedRelationsFor(catalog, definition.blueprint) : removedRelations;
        const judgedWithRule = new Set<string>();
        const ofDataset: FindingDraft[] = [];
        const datasetSubject = `The dataset rule of input "${input}"`;
        for (const { path, rule } of searchRules(definition.dataset, [...base, 'dataset'])) {
          const site = {
            category: 'action-user-input' as const,
            resource,
            path,
            rule,
            subject: datasetSubject,
            removedRelations: datasetRemoved,
            sample,
            ...(typeof definition.blueprint === 'string' && { blueprint: definition.blueprint, teamProperties: judge.teamProperties(definition.blueprint) }),
            // A team picker's entities are the org's teams: `$title` and `$identifier` are the team's.
            ...((teamTyped?.kind === '_team' || teamTyped?.kind === 'team') && { searchesTeams: true }),
          };
          if (judge.comparesTeams(site)) judgedWithRule.add(joinPath(...path, 'value', 'jqQuery'));
          const finding = judge.searchRule(site);
          if (finding) ofDataset.push(finding);
        }
        // A dataset is judged whole, with its combinators, as every search query is.
        const datasetBlueprint = typeof definition.blueprint === 'string' ? { blueprint: definition.blueprint } : {};
        findings.push(...judge.wholeGroups({ subject: datasetSubject, ...datasetBlueprint }, definition.dataset, [...base, 'dataset'], ofDataset));
        for (const query of jqQueries(definition, base)) {
          const location = joinPath(...query.path);
          if (judgedWithRule.has(location)) continue;
          const isDefault = teamDefault && location === joinPath(...base, 'default', 'jqQuery');
          const finding = judge.expression(
            {
              category: 'action-user-input',
              resource,
              location,
              expression: query.expression,
              subject: `The jqQuery of input "${input}"`,
              removedRelations,
              teamProperties,
              teamInputs,
              sample,
              ...onBlueprint,
              ...(isDefault && { sink: 'team-value' as const, teamDestination: `sets the default of input "${input}", which holds teams: team titles before the migration, team identifiers after it (a value that stays a title selects no team then)` }),
            },
            isDefault ? { setsTeam: true } : {},
          );
          if (finding) findings.push(finding);
        }
      }
      // Conditions on the whole form (`required: {jqQuery}`, `order`) live beside `properties`.
      for (const query of jqQueries({ ...found.inputs, properties: null }, found.base)) {
        const finding = judge.expression({
          category: 'action-user-input',
          resource,
          location: joinPath(...query.path),
          expression: query.expression,
          subject: 'The jqQuery of the form',
          removedRelations,
          teamProperties,
          teamInputs,
          sample,
          ...onBlueprint,
        });
        if (finding) findings.push(finding);
      }
    }
    return findings;
  },
};
