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
import type { EntityRecord } from '../model/snapshot.js';
import { ruleTree } from './search-rule-finding.js';
import { literalTexts, teamCases, teamsFor, type TeamCase } from './worlds.js';
import { userInWorld, type World } from './user-model.js';
import { builtInOf, type BuiltInUser } from './built-in-values.js';
import { contextReads } from './user-contexts.js';

export function wholePolicy(catalog: Catalog, subject: string, queries: readonly PolicyQuery[], conditions: readonly string[], findings: readonly FindingDraft[]): FindingDraft[] {
  const queryAt = (location: string) => queries.find(({ path }) => ['.', '['].some((next) => location.startsWith(`${joinPath(...path)}${next}`)));
  const under = (location: string) => queryAt(location) !== undefined;
  const flagged = findings.some((finding) => under(finding.location) && finding.verdict !== judgeSite('policy-holds'));
  const whole = flagged && conditions.length > 0 && catalog.jq ? answersAlike(catalog, queries, conditions) : false;
  if (whole === false) return [...findings];
  return findings.map((finding) => {
    if (!under(finding.location) || finding.verdict === judgeSite('policy-holds')) return finding;
    // Not run whole is said, never taken for alike: what the rule does alone stays in the reason.
    if (whole !== true) return partOfWhole(finding, 'not-run', `${finding.reason} Its policy was not run whole: query "${whole.query}" finds ${whole.found} entities in one world, more than the ${MAX_FOUND} this tool sends jq for a query, so whether the policy lets the same people through after the migration is unknown.`, 'Check by hand whether the policy, its queries with its conditions, lets the same people through before and after the migration.');
    const reason = `${subject} of query "${queryAt(finding.location)!.id}" is one rule of a policy that, run whole (its queries over the org's entities in each world, its conditions over what they find), gives every user the same answer before the migration and after it.`;
    return partOfWhole(finding, 'policy-holds', reason, 'Nothing to change: the policy as a whole lets the same people through.');
  });
}

/**
 * The users a policy is run for: the org's people where it lists them (admins pass anyway), else
 * one per team case; each distinct one once (the email kept only where something reads it), with
 * that distinction as its key.
 */
function usersOf(catalog: Catalog, cases: () => TeamCase[], readsEmail: () => boolean): (BuiltInUser & { key: string })[] {
  const people = catalog.people.filter((person) => !person.admin);
  const all = people.length > 0 ? people.map((p) => ({ email: p.email, teams: p.names.map((title, i) => ({ title, identifier: p.identifiers[i] ?? title })) })) : cases().map((teamCase) => ({ email: 'someone@example.com', teams: teamCase.teams(0) }));
  const email = people.length > 0 && readsEmail();
  const distinct = new Map(all.map((user) => [JSON.stringify([user.teams, email && user.email]), user]));
  return [...distinct].map(([key, user]) => ({ ...user, key }));
}

const usersIn = new WeakMap<Catalog['teams'], { people: Catalog['people']; made: Map<string, ReturnType<typeof usersOf>> }>();

/** Whether some value the service fills in a query (`{{getUserEmail()}}`) holds the user's email. */
const fillsEmail = (value: JsonValue | undefined): boolean => {
  const filled = builtInOf(value);
  if (filled !== undefined && 'builtIn' in filled) return filled.builtIn.values({ email: 'a@', teams: [] }, 'after').join() !== filled.builtIn.values({ email: 'b@', teams: [] }, 'after').join();
  return Array.isArray(value) ? value.some(fillsEmail) : isObject(value) && Object.values(value).some(fillsEmail);
};

/** Ours: the most entities a query may find in a world for its policy to be run whole (jq is sent every one). */
const MAX_FOUND = 1000;

/** Every blueprint's entities in one list, once per org: what a query naming no blueprint searches. */
const everyEntity = new WeakMap<Catalog['entities'], readonly EntityRecord[]>();
/**
 * What a rule tree finds in a world, and jq's inputs made of such finds, once per org: policies
 * whose queries read alike (one copied into many actions) share them, so each is matched once and
 * jq is sent each input once (its text is kept per object), whoever asks.
 */
const madeIn = new WeakMap<Catalog['entities'], Map<string, JsonValue | undefined>>();

function searched(catalog: Catalog, blueprint: string | undefined): readonly EntityRecord[] {
  if (blueprint !== undefined) return catalog.entities.get(blueprint) ?? [];
  if (!everyEntity.has(catalog.entities)) everyEntity.set(catalog.entities, [...catalog.entities.values()].flat());
  return everyEntity.get(catalog.entities)!;
}

/** A query that finds more than MAX_FOUND entities in a world: its policy is not run whole. */
type Capped = { query: string; found: number };

/**
 * jq's inputs for a policy in one world: one per class of users whose queries find alike, holding
 * what each query finds among the org's entities once and the users beside it (`users[i]`, the
 * users' places in `users`); undefined where some query cannot be run so. Before the migration an
 * org that has not migrated is what it holds today (a half-way org: blueprints holding identifiers
 * already keep them). A query naming no blueprint is one search over every blueprint's entities.
 */
function inputsFor(catalog: Catalog, queries: readonly PolicyQuery[], users: readonly (BuiltInUser & { key: string })[], world: World): { input: JsonValue; users: number[] }[] | Capped | undefined {
  if (!madeIn.has(catalog.entities)) madeIn.set(catalog.entities, new Map());
  const made = madeIn.get(catalog.entities)!;
  const once = (key: string, make: () => JsonValue | undefined) => (made.has(key) ? made.get(key) : made.set(key, make()).get(key));
  const keyOf = new Map<RuleTree, string>();
  const classOf = (trees: readonly (RuleTree | undefined)[]) => {
    if (trees.some((tree) => tree === undefined)) return undefined;
    const keys = trees.map((tree, q) => keyOf.get(tree!) ?? keyOf.set(tree!, JSON.stringify([world, catalog.migrated, queries[q]!.blueprint ?? null, tree])).get(tree!)!);
    return { trees: trees as RuleTree[], keys, key: keys.join('\u0001') };
  };
  // Queries with no value filled for the user make one tree each, one class, for everybody.
  const plain = classOf(queries.map((query) => (isObject(query.query) ? ruleTree(catalog, query.query, query.blueprint) : undefined)));
  const classes = new Map<string, { results: JsonObject; users: number[] }>();
  for (const [i, user] of users.entries()) {
    const ofUser = plain ?? classOf(queries.map((query) => (isObject(query.query) ? ruleTree(catalog, query.query, query.blueprint, { user, world }) : undefined)));
    if (!ofUser) return undefined;
    const { trees, keys, key } = ofUser;
    if (!classes.has(key)) {
      const results = keyedRecord();
      for (const [q, query] of queries.entries()) {
        const found = once(keys[q]!, () => entitiesFound({ directory: catalog.teams, tree: trees[q]!, entities: searched(catalog, query.blueprint), blueprint: query.blueprint, today: !catalog.migrated, world }));
        if (!Array.isArray(found)) return undefined;
        if (found.length > MAX_FOUND) return { query: query.id, found: found.length };
        results[query.id] = { entities: found };
      }
      classes.set(key, { results, users: [] });
    }
    classes.get(key)!.users.push(i);
  }
  return [...classes].map(([key, { results, users: those }]) => {
    const make = () => ({ results, users: those.map((i) => userInWorld(users[i]!.teams, world, { email: users[i]!.email })) });
    return { input: once(`${key}\u0002${those.map((i) => users[i]!.key).join('\u0001')}`, make)!, users: those };
  });
}

/**
 * Whether every condition gives every user the same answer in both worlds, some user passing in
 * one: alike only because nobody passes in either proves nothing the policy is for.
 */
function answersAlike(catalog: Catalog, queries: readonly PolicyQuery[], conditions: readonly string[]): boolean | Capped {
  // No entity to find in either world proves nothing of the entities the org will have.
  if (!queries.some((query) => searched(catalog, query.blueprint).length > 0)) return false;
  const jq = catalog.jq!;
  const text = conditions.join(' ');
  const cases = () => teamCases(catalog.teams, teamsFor(catalog.teams, text, [], conditions.flatMap(literalTexts)), [], 'policy').filter((teamCase) => !teamCase.sided);
  const fills = queries.some((query) => fillsEmail(query.query));
  // The rules' dry run and their real run ask for the same users: made once.
  if (usersIn.get(catalog.teams)?.people !== catalog.people) usersIn.set(catalog.teams, { people: catalog.people, made: new Map() });
  const { made } = usersIn.get(catalog.teams)!;
  const key = `${fills}\u0000${text}`;
  const users = made.get(key) ?? made.set(key, usersOf(catalog, cases, () => fills || contextReads(text).email)).get(key)!;
  const [before, after] = [inputsFor(catalog, queries, users, 'before'), inputsFor(catalog, queries, users, 'after')];
  if (!before || !after) return false;
  if (!Array.isArray(before)) return before;
  if (!Array.isArray(after)) return after;
  const inputs = { before, after };
  // Each user's context as the service builds it, run in jq beside the others of its class: what the
  // queries find goes to jq once per class, not once per user. Every run asked (a plan records them all), then read.
  const wrapped = conditions.map((condition) => `[.results as $results | .users[] | {user: ., results: $results, trigger: {user: .}} | [(${condition}\n)]]`);
  jq.prefetch?.({ evaluate: wrapped.map((expression) => ({ expression, inputs: [...inputs.before, ...inputs.after].map(({ input }) => input) })) });
  let passes = false;
  const alike = wrapped.map((expression, c) => {
    const answers = { before: new Array<string>(users.length), after: new Array<string>(users.length) };
    // A condition jq rejects alone proves nothing, whatever its wrapping gives (a plan's engine only records).
    let answered = jq.plansOnly || jq.validate(conditions[c]!).ok;
    for (const world of ['before', 'after'] as const) {
      for (const { input, users: those } of inputs[world]) {
        const run = jq.evaluate(input, expression);
        const outputs = run.ok && run.values.length === 1 && Array.isArray(run.values[0]) ? run.values[0] : [];
        // Only answers jq gives prove anything: an error may be a field these contexts lack.
        answered &&= outputs.length === those.length;
        those.forEach((i, k) => (answers[world][i] = JSON.stringify(outputs[k])));
        passes ||= outputs.some((values) => Array.isArray(values) && values.some((value) => value !== false && value !== null));
      }
    }
    return answered && answers.before.every((answer, i) => answer === answers.after[i]);
  });
  return alike.every(Boolean) && passes;
}
