import type { Catalog } from '../catalog/catalog.js';
import type { PolicyQuery, SiteJudge } from '../model/sites.js';
import { keyedRecord, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { actionRef } from '../catalog/resources.js';
import { searchRules } from '../catalog/walk.js';

/**
 * Policies of action permissions (execute and approve): query rules on `$team` and conditions
 * reading team values (`.results.<query>.entities[].team`, `.user.team`). Queries may search any
 * blueprint, so every removed relation counts.
 */
export const actionDynamicPermission: Rule = {
  category: 'action-dynamic-permission',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const [id, permissions] of Object.entries(catalog.snapshot.actionPermissions ?? {})) {
      const action = catalog.actions.get(id);
      if (!isObject(permissions)) continue; // null: absent
      const resource: ResourceRef = action ? actionRef(action) : { type: 'action', identifier: id };
      for (const stage of ['execute', 'approve'] as const) {
        const policy = isObject(permissions[stage]) ? (permissions[stage] as JsonObject).policy : undefined;
        if (!isObject(policy)) continue;
        const base = ['permissions', stage, 'policy'];
        const queries = isObject(policy.queries) ? policy.queries : keyedRecord();
        const ofQueries: FindingDraft[] = [];
        const queryList: PolicyQuery[] = [];
        for (const [queryId, query] of Object.entries(queries)) {
          const ofQuery: FindingDraft[] = [];
          const blueprint = queryBlueprint(query);
          for (const { path, rule } of searchRules(query, [...base, 'queries', queryId])) {
            const finding = judge.searchRule({
              category: 'action-dynamic-permission',
              resource,
              path,
              rule,
              subject: `The ${stage} policy rule of query "${queryId}"`,
              removedRelations: catalog.allRemovedRelations,
              // A `{{ }}` value runs on the policy's context: the user, the run (dynamic permissions docs).
              sample: 'policy',
              queryIds: Object.keys(queries),
              // Its own blueprint's relations, mirrors and entities, where a `$blueprint` rule names it.
              ...(blueprint !== undefined && { blueprint, teamProperties: judge.teamProperties(blueprint) }),
            });
            if (finding) ofQuery.push(finding);
          }
          ofQueries.push(...judge.wholeGroups({ subject: `The ${stage} policy rule of query "${queryId}"`, ...(blueprint !== undefined && { blueprint }) }, query, [...base, 'queries', queryId], ofQuery));
          queryList.push({ id: queryId, query, path: [...base, 'queries', queryId], ...(blueprint !== undefined && { blueprint }) });
        }
        const conditions = Array.isArray(policy.conditions) ? policy.conditions : [];
        // The queries are read by the conditions: judged with them, as the policy runs.
        const texts = conditions.filter((condition): condition is string => typeof condition === 'string');
        findings.push(...judge.wholePolicy(`The ${stage} policy rule`, queryList, texts.length === conditions.length ? texts : [], ofQueries));
        conditions.forEach((condition, index) => {
          if (typeof condition !== 'string') return;
          const finding = judge.expression({
            category: 'action-dynamic-permission',
            resource,
            location: joinPath(...base, 'conditions', index),
            expression: condition,
            subject: `The ${stage} policy condition`,
            removedRelations: catalog.allRemovedRelations,
          });
          if (finding) findings.push(finding);
        });
      }
    }
    return findings;
  },
};

/** The blueprint a query searches, where an `and` of its rules (or its only rule) says `$blueprint = <one>`. */
function queryBlueprint(query: JsonValue | undefined): string | undefined {
  if (!isObject(query) || !Array.isArray(query.rules) || (query.combinator === 'or' && query.rules.length > 1)) return undefined;
  const named = query.rules.find((rule): rule is JsonObject => isObject(rule) && rule.property === '$blueprint' && rule.operator === '=' && typeof rule.value === 'string');
  return named?.value as string | undefined;
}
