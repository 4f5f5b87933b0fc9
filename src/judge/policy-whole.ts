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
import { entitiesFound } from './query-rule.js';
import type { EntityRecord } from '../model/snapshot.js';
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

/** Every blueprint's entities in one list, once per org: what a query naming no blueprint searches. */
const everyEntity = new WeakMap<Catalog['entities'], readonly EntityRecord[]>();
/**
 * What a rule tree finds in a world, and the contexts made of such finds, once per org: policies
 * whose queries read alike (one copied into many actions) share them, so each is matched once and
 * jq is sent each context once (its text is kept per object), whoever asks.
 */
const madeIn = new WeakMap<Catalog['entities'], Map<string, JsonValue | undefined>>();

function searched(catalog: Catalog, blueprint: string | undefined): readonly EntityRecord[] {
  if (blueprint !== undefined) return catalog.entities.get(blueprint) ?? [];
  if (!everyEntity.has(catalog.entities)) everyEntity.set(catalog.entities, [...catalog.entities.values()].flat());
  return everyEntity.get(catalog.entities)!;
}

/**
 * A policy's context for one user in one world, with what each query finds among the org's
 * entities; undefined where some query cannot be run so. Before the migration an org that has not
 * migrated is what it holds today (a half-way org: blueprints holding identifiers already keep
 * them). A query naming no blueprint is one search over every blueprint's entities. Users whose
 * filled values are alike make the same tree, so it is matched once per world.
 */
function contextFor(catalog: Catalog, queries: readonly PolicyQuery[], user: BuiltInUser, world: World): JsonValue | undefined {
  if (!madeIn.has(catalog.entities)) madeIn.set(catalog.entities, new Map());
  const made = madeIn.get(catalog.entities)!;
  const once = (key: string, make: () => JsonValue | undefined) => (made.has(key) ? made.get(key) : made.set(key, make()).get(key));
  const results = keyedRecord();
  const keys: string[] = [world, user.email, JSON.stringify(user.teams)];
  for (const query of queries) {
    const tree = isObject(query.query) ? ruleTree(catalog, query.query, query.blueprint, { user, world }) : undefined;
    const key = JSON.stringify([world, catalog.migrated, query.blueprint ?? null, tree ?? null]);
    const found = once(key, () => tree && entitiesFound({ directory: catalog.teams, tree, entities: searched(catalog, query.blueprint), blueprint: query.blueprint, today: !catalog.migrated, world }));
    if (found === undefined) return undefined;
    results[query.id] = { entities: found };
    keys.push(query.id, key);
  }
  const runner = userInWorld(user.teams, world, { email: user.email });
  return once(JSON.stringify(keys), () => ({ user: runner, results, trigger: { user: runner } }));
}

/**
 * Whether every condition gives every user the same answer in both worlds, some user passing in
 * one: alike only because nobody passes in either proves nothing the policy is for.
 */
function answersAlike(catalog: Catalog, queries: readonly PolicyQuery[], conditions: readonly string[]): boolean {
  // No entity to find in either world proves nothing of the entities the org will have.
  if (!queries.some((query) => searched(catalog, query.blueprint).length > 0)) return false;
  const jq = catalog.jq!;
  const text = conditions.join(' ');
  const cases = () => teamCases(catalog.teams, teamsFor(catalog.teams, text, [], conditions.flatMap(literalTexts)), [], 'policy').filter((teamCase) => !teamCase.sided);
  const users = usersOf(catalog, cases, contextReads(text).email || queries.some((query) => fillsEmail(query.query)));
  // Each user's context in each world, all asked of jq at once per condition.
  const contexts: JsonValue[] = [];
  for (const user of users) {
    for (const world of ['before', 'after'] as const) {
      const context = contextFor(catalog, queries, user, world);
      if (context === undefined) return false;
      contexts.push(context);
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
