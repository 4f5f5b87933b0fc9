/**
 * Issue 39, item 3: a policy is judged whole. Its queries find entities, its conditions read what
 * they found (`.results.<query>.entities`); a query rule that only changes which of two queries
 * finds an entity changes nothing a condition answers. So the queries are run over the org's
 * entities in each world, then the conditions over those results for every user case; where each
 * condition answers alike before and after for everybody, the queries' rules are no change.
 */
import type { Catalog } from '../catalog/catalog.js';
import { isObject, keyedRecord, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { PolicyQuery } from '../model/sites.js';
import { joinPath } from '../catalog/location.js';
import { judgeSite, partOfWhole } from './decision-table.js';
import { entitiesFound, type RuleTree } from './query-rule.js';
import { ruleTree } from './search-rule-finding.js';
import { literalTexts, teamCases, teamsFor, type TeamCase } from './worlds.js';
import { userInWorld, type World } from './user-model.js';
import { builtInOf, type BuiltInUser } from './built-in-values.js';
import { contextReads } from './user-contexts.js';

export function wholePolicy(catalog: Catalog, subject: string, queries: readonly PolicyQuery[], conditions: readonly string[], findings: readonly FindingDraft[]): FindingDraft[] {
  const queryAt = (location: string) =>
    queries.find((query) => {
      const where = joinPath(...query.path);
      return location.startsWith(`${where}.`) || location.startsWith(`${where}[`);
    });
  const under = (location: string) => queryAt(location) !== undefined;
  const flagged = findings.some((finding) => under(finding.location) && finding.verdict !== judgeSite('policy-holds'));
  if (!flagged || conditions.length === 0 || !catalog.jq || !answersAlike(catalog, queries, conditions)) return [...findings];
  return findings.map((finding) => {
    if (!under(finding.location) || finding.verdict === judgeSite('policy-holds')) return finding;
    const reason = `${subject} of query "${queryAt(finding.location)!.id}" is one rule of a policy that, run whole (its queries over the org's entities in each world, its conditions over what they find), gives every user the same answer before the migration and after it.`;
    return partOfWhole(finding, 'policy-holds', reason, 'Nothing to change: the policy as a whole lets the same people through.');
  });
}

/**
 * The users a policy is run for: the org's people where it lists them (admins pass anyway), else
 * one per team case; each distinct one once (the email kept only where something reads it).
 */
function usersOf(catalog: Catalog, cases: () => TeamCase[], readsEmail: boolean): BuiltInUser[] {
  const people = catalog.people.filter((person) => !person.admin);
  const all = people.length > 0 ? people.map((p) => ({ email: p.email, teams: p.names.map((title, i) => ({ title, identifier: p.identifiers[i] ?? title })) })) : cases().map((teamCase) => ({ email: 'someone@example.com', teams: teamCase.teams(0) }));
  const distinct = new Map(all.map((user) => [JSON.stringify([user.teams, readsEmail && user.email]), user]));
  return [...distinct.values()];
}

/** Whether some value the service fills in a query (`{{getUserEmail()}}`) holds the user's email. */
const fillsEmail = (value: JsonValue | undefined): boolean => {
  const filled = builtInOf(value);
  if (filled !== undefined && 'builtIn' in filled) return filled.builtIn.values({ email: 'a@', teams: [] }, 'after').join() !== filled.builtIn.values({ email: 'b@', teams: [] }, 'after').join();
  return Array.isArray(value) ? value.some(fillsEmail) : isObject(value) && Object.values(value).some(fillsEmail);
};

/**
 * What each query finds for one user among the org's entities in one world; undefined where some
 * query cannot be run so. Before the migration an org that has not migrated is what it holds today
 * (a half-way org: blueprints holding identifiers already keep them). A query naming no blueprint
 * searches every blueprint's entities.
 */
function resultsFor(catalog: Catalog, queries: readonly PolicyQuery[], user: BuiltInUser, world: World, memo: Map<string, readonly JsonObject[] | undefined>): JsonObject | undefined {
  const out = keyedRecord();
  for (const query of queries) {
    const entities: JsonObject[] = [];
    for (const blueprint of query.blueprint !== undefined ? [query.blueprint] : [...catalog.entities.keys()]) {
      const tree: RuleTree | undefined = isObject(query.query) ? ruleTree(catalog, query.query, blueprint, { user, world }) : undefined;
      // Users whose filled values are alike find alike: each tree is matched once per blueprint and world.
      const key = `${world}\u0000${blueprint}\u0000${JSON.stringify(tree)}`;
      if (!memo.has(key)) memo.set(key, tree && entitiesFound({ directory: catalog.teams, tree, entities: catalog.entities.get(blueprint) ?? [], blueprint, today: !catalog.migrated })?.[world]);
      const found = memo.get(key);
      if (found === undefined) return undefined;
      entities.push(...found);
    }
    out[query.id] = { entities };
  }
  return out;
}

/**
 * Whether every condition gives every user the same answer in both worlds, some user passing in
 * one: alike only because nobody passes in either proves nothing the policy is for.
 */
function answersAlike(catalog: Catalog, queries: readonly PolicyQuery[], conditions: readonly string[]): boolean {
  // No entity to find in either world proves nothing of the entities the org will have.
  if (!queries.some((query) => (query.blueprint === undefined ? [...catalog.entities.values()] : [catalog.entities.get(query.blueprint) ?? []]).some((list) => list.length > 0))) return false;
  const jq = catalog.jq!;
  const text = conditions.join(' ');
  const cases = () => teamCases(catalog.teams, teamsFor(catalog.teams, text, [], conditions.flatMap(literalTexts)), [], 'policy').filter((teamCase) => !teamCase.sided);
  const memo = new Map<string, readonly JsonObject[] | undefined>();
  const users = usersOf(catalog, cases, contextReads(text).email || queries.some((query) => fillsEmail(query.query)));
  // Each user's context in each world, all asked of jq at once per condition.
  const contexts: JsonValue[] = [];
  for (const user of users) {
    for (const world of ['before', 'after'] as const) {
      const results = resultsFor(catalog, queries, user, world, memo);
      if (results === undefined) return false;
      const runner = userInWorld(user.teams, world, { email: user.email });
      contexts.push({ user: runner, results, trigger: { user: runner } });
    }
  }
  let passes = false;
  const alike = conditions.every((condition) => {
    jq.prefetch?.({ evaluate: [{ expression: condition, inputs: contexts }] });
    const runs = contexts.map((context) => jq.evaluate(context, condition));
    passes ||= runs.some((run) => run.ok && run.values.some((value) => value !== false && value !== null));
    // Only answers jq gives prove anything: an error may be a field these contexts lack.
    return runs.every((run, i) => run.ok && (i % 2 === 1 || JSON.stringify(run) === JSON.stringify(runs[i + 1])));
  });
  return alike && passes;
}
