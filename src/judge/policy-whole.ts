/**
 * Issue 39, item 3: a policy is judged whole. Its queries find entities, its conditions read what
 * they found (`.results.<query>.entities`); a query rule that only changes which of two queries
 * finds an entity changes nothing a condition answers. So the queries are run over the org's
 * entities in each world, then the conditions over those results for every user case; where each
 * condition answers alike before and after for everybody, the queries' rules are no change.
 */
import type { Catalog } from '../catalog/catalog.js';
import { isObject, keyedRecord, type JsonValue } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { PolicyQuery } from '../model/sites.js';
import { joinPath } from '../catalog/location.js';
import { judgeSite, partOfWhole } from './decision-table.js';
import { entitiesFound, type RuleTree } from './query-rule.js';
import { ruleTree } from './search-rule-finding.js';
import { contextFor, literalTexts, teamCases, teamsFor } from './worlds.js';
import type { World } from './user-model.js';

export function wholePolicy(catalog: Catalog, subject: string, queries: readonly PolicyQuery[], conditions: readonly string[], findings: readonly FindingDraft[]): FindingDraft[] {
  const queryAt = (location: string) =>
    queries.find((query) => {
      const where = joinPath(...query.path);
      return location.startsWith(`${where}.`) || location.startsWith(`${where}[`);
    });
  const under = (location: string) => queryAt(location) !== undefined;
  const flagged = findings.some((finding) => under(finding.location) && finding.verdict !== judgeSite('policy-holds'));
  if (!flagged || conditions.length === 0 || !catalog.jq) return [...findings];
  const results = resultsInWorlds(catalog, queries);
  if (results === undefined || !answersAlike(catalog, queries, conditions, results)) return [...findings];
  return findings.map((finding) => {
    if (!under(finding.location) || finding.verdict === judgeSite('policy-holds')) return finding;
    const reason = `${subject} of query "${queryAt(finding.location)!.id}" is one rule of a policy that, run whole (its queries over the org's entities in each world, its conditions over what they find), gives every user the same answer before the migration and after it.`;
    return partOfWhole(finding, 'policy-holds', reason, 'Nothing to change: the policy as a whole lets the same people through.');
  });
}

/** What each query finds among the org's entities, before and after; undefined where some query cannot be run so. */
function resultsInWorlds(catalog: Catalog, queries: readonly PolicyQuery[]): Record<World, JsonValue> | undefined {
  const out = { before: keyedRecord(), after: keyedRecord() };
  let entitiesSeen = 0;
  for (const query of queries) {
    if (query.blueprint === undefined) return undefined;
    const tree: RuleTree | undefined = isObject(query.query) ? ruleTree(catalog, query.query, query.blueprint) : undefined;
    const entities = catalog.entities.get(query.blueprint) ?? [];
    const found = tree && entitiesFound({ directory: catalog.teams, tree, entities, blueprint: query.blueprint });
    if (found === undefined) return undefined;
    entitiesSeen += entities.length;
    out.before[query.id] = { entities: found.before };
    out.after[query.id] = { entities: found.after };
  }
  // No entity found in either world proves nothing of the entities the org will have.
  return entitiesSeen > 0 ? out : undefined;
}

/** Whether every condition gives every user case the same answer in both worlds. */
function answersAlike(catalog: Catalog, queries: readonly PolicyQuery[], conditions: readonly string[], results: Record<World, JsonValue>): boolean {
  const jq = catalog.jq!;
  const text = conditions.join(' ');
  const strings = conditions.flatMap((condition) => literalTexts(condition));
  const cases = teamCases(catalog.teams, teamsFor(catalog.teams, text, [], strings), [], 'policy').filter((teamCase) => !teamCase.sided);
  const ids = queries.map((query) => query.id);
  // Only answers jq gives prove anything: an error may be a field these contexts lack.
  const answer = (condition: string, context: JsonValue) => {
    const run = jq.evaluate(context, condition);
    return run.ok ? JSON.stringify(run.values) : undefined;
  };
  return cases.every((teamCase) => {
    const contexts = { before: contextFor('policy', teamCase, 'before', ids, []), after: contextFor('policy', teamCase, 'after', ids, []) };
    const withResults = (world: World) => ({ ...(contexts[world] as object), results: results[world] }) as JsonValue;
    return conditions.every((condition) => {
      const before = answer(condition, withResults('before'));
      return before !== undefined && before === answer(condition, withResults('after'));
    });
  });
}
