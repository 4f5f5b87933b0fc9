import type { Catalog } from '../catalog/catalog.js';
import { compareText } from '../compare-text.js';
import { userConditionOutcomes } from './condition-answers.js';
import { compileFastCheck, outcomeText, userContextObject } from './fast-conditions.js';
import { checkKey, program, type ConditionCheck, type ConditionOutcomes } from '../jq/condition-outcomes.js';
import type { JqEngine } from '../jq/engine.js';
import { splitCondition, type SplitCondition } from './split-condition.js';
import type { AccessChange } from '../model/access.js';
import type { Finding } from '../model/finding.js';
import type { JsonValue } from '../model/json.js';
import { permissionSites, type AccessRule, type PermissionSite } from './permission-sites.js';
import { teamIdentifier, type Person as AccessUser } from '../catalog/people.js';
import { contextReads, distinctUserContexts, type ContextReads, unknownDataRead, USER_CONTEXT, userContext, type TeamForm } from '../judge/user-contexts.js';
import { userFieldsRead } from '../judge/user-reads.js';

/**
 * Who holds one permission in one form: one flag per user (in the order of the users given), or
 * why that cannot be known. Flags, not sets of emails: thousands of permissions times thousands
 * of users stay a few megabytes.
 */
type Holders = { kind: 'known'; holds: Uint8Array } | { kind: 'undecidable'; reason: string };

/** Permissions the service's admins hold whatever the configuration says. */
const ADMIN_HOLDS: ReadonlySet<string> = new Set(['execute', 'approve', 'read', 'see']);

/**
 * report.access (docs/formats.md, the report): for every permission a team finding touches, who holds it
 * before the migration (team values are titles) and who after it if nothing is changed
 * (identifiers). Undefined when the snapshot has no users. Pure, apart from asking jq.
 */
export function computeAccess(catalog: Catalog, findings: readonly Finding[]): AccessChange[] | undefined {
  const raw = catalog.snapshot.users;
  // No list, or an empty one (a recording of an org whose users could not be named): nothing to say.
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  // Issue 29: once the org has migrated, the world of titles is gone: replaying the title →
  // identifier flips on it would invent gains and losses. What changed since an earlier report is
  // `progress.stillLockedOut` (--since); here nothing changes.
  if (orgHasMigrated(catalog)) return [];
  const users = catalog.people;
  // Only a place that reads team values can change with them: the rest costs no jq run.
  const byResource = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.resource.type}\u0000${finding.resource.identifier}`;
    const list = byResource.get(key);
    if (list) list.push(finding);
    else byResource.set(key, [finding]);
  }
  // `findings` may hold checked references (`verified`): a flip at one is linked to it, so the judge
  // can refuse the pair (judge/access-agreement.ts).
  // Issue 21: every gate, not only those with a finding: a reference judged unaffected by mistake
  // still shows here if its outcome flips for someone.
  const touched = permissionSites(catalog).map((site) => ({ site, finding: causingFinding(site, byResource.get(`${site.resource.type}\u0000${site.resource.identifier}`) ?? []) }));
  const holdersAt = holdersOfSites(catalog, touched.map((t) => t.site), users, ['titles', 'identifiers']);
  const changes: AccessChange[] = [];
  touched.forEach(({ site, finding }, index) => {
    const [before, after] = holdersAt(index) as [Holders, Holders];
    const change: AccessChange = { resource: site.resource, permission: site.permission, ...(site.input !== undefined && { input: site.input }), ...(finding && { finding: finding.id }) };
    if (before.kind === 'undecidable' || after.kind === 'undecidable') {
      // Said only where a finding names the place: elsewhere nothing reads team values to flip.
      if (finding && finding.verdict !== 'unaffected') changes.push({ ...change, undecidable: before.kind === 'undecidable' ? before.reason : (after as { reason: string }).reason });
      return;
    }
    const loses: string[] = [];
    const gains: string[] = [];
    for (let i = 0; i < users.length; i++) {
      if (before.holds[i] === after.holds[i]) continue;
      (before.holds[i] ? loses : gains).push(users[i]!.email);
    }
    if (loses.length > 0) change.loses = loses;
    if (gains.length > 0) change.gains = gains;
    if (loses.length + gains.length > 0) changes.push(change);
  });
  return changes.sort(compareChanges);
}

/** The org's team values are identifiers already: the flag, the recorded state or its shapes say so. */
const orgHasMigrated = (catalog: Pick<Catalog, 'migrated' | 'migrationRan'>): boolean => catalog.migrated || catalog.migrationRan;

/**
 * After the migration (`--since`): of the people an earlier report said would lose a
 * permission, those who still do not hold it in the org as it is now (team values are
 * identifiers). Entries nobody is locked out of any more are left out.
 */
export function stillLockedOut(previous: readonly AccessChange[], catalog: Catalog): AccessChange[] {
  const raw = catalog.snapshot.users;
  if (!Array.isArray(raw)) return [];
  const users = catalog.people;
  const indexOf = new Map(users.map((user, index) => [user.email, index]));
  const sites = new Map(permissionSites(catalog).map((site) => [siteKey(site), site]));
  // A resource or permission that is gone locks nobody out.
  const asked = previous.filter((entry) => entry.loses && entry.loses.length > 0 && sites.has(siteKey(entry)));
  const holdersAt = holdersOfSites(catalog, asked.map((entry) => sites.get(siteKey(entry))!), users, ['identifiers']);
  const result: AccessChange[] = [];
  asked.forEach((entry, index) => {
    const [now] = holdersAt(index) as [Holders];
    const { gains: _gains, undecidable: _undecidable, loses, ...rest } = entry;
    if (now.kind === 'undecidable') result.push({ ...rest, undecidable: now.reason });
    else {
      const locked = (loses ?? []).filter((email) => !now.holds[indexOf.get(email) ?? -1]);
      if (locked.length > 0) result.push({ ...rest, loses: locked });
    }
  });
  return result.sort(compareChanges);
}

/**
 * Who holds each site's permission in each of `forms`, by the site's index. Every check runs in
 * batches over the distinct contexts of the part of the user it reads (user-reads.ts): people with
 * the same teams (and roles, and email, where a check reads them) give the same answer, so jq sees
 * each distinct context once per form, and each check (expression) once however many sites repeat
 * it. A condition site's flags are made when asked for, and a list's are shared by the sites that
 * repeat it: tens of thousands of sites × forms × users held at once were 70 MB (issue 41).
 */
export function holdersOfSites(catalog: Catalog, sites: readonly PermissionSite[], users: readonly AccessUser[], forms: readonly TeamForm[]): (index: number) => Holders[] {
  const people = peopleOf(users);
  const answers: (Holders[] | undefined)[] = sites.map((site) => {
    const rule = site.rule;
    if (rule.kind === 'lists') return forms.map((form): Holders => ({ kind: 'known', holds: listHolders(catalog, site, rule, people, form) }));
    for (const { expression } of checksOf(rule)) {
      const reason = unknownDataRead(expression);
      if (reason !== undefined) return forms.map((): Holders => ({ kind: 'undecidable', reason }));
    }
    if (!catalog.jq) return forms.map((): Holders => ({ kind: 'undecidable', reason: 'jq is not loaded, so the conditions were not run' }));
    return undefined; // run below, with the others that read the same parts of the user
  });
  const jq = catalog.jq;
  if (!jq) return (index) => answers[index]!;

  // Issue 21: a condition reading the email as well as teams runs its teams part per team list
  // and its email part only for those whose teams part flips (split-condition.ts).
  if (forms.length === 2) splitSiteHolders(jq, sites, people, answers);

  // Each check once, in the variant of the user its paths read.
  const variants = new Map<string, { reads: ContextReads; checks: Map<string, ConditionCheck> }>();
  const placed = new Set<string>();
  sites.forEach((site, index) => {
    if (answers[index] !== undefined) return;
    for (const check of checksOf(site.rule)) {
      const key = checkKey(check);
      if (placed.has(key)) continue;
      placed.add(key);
      const reads = contextReads(check.expression);
      const id = `${reads.email}:${reads.roles}`;
      let variant = variants.get(id);
      if (!variant) variants.set(id, (variant = { reads, checks: new Map() }));
      variant.checks.set(key, check);
    }
  });
  const answered = new Map<string, { outcomes: ConditionOutcomes; slots: Int32Array[] }>();
  for (const { reads, checks } of variants.values()) {
    const { contexts, slots } = distinctUserContexts(users, forms, reads);
    const outcomes = userConditionOutcomes(jq, [...checks.values()], contexts);
    for (const key of checks.keys()) answered.set(key, { outcomes: outcomes.get(key)!, slots });
  }
  return (index) => answers[index] ?? holdersFromOutcomes(sites[index]!, forms, answered, people);
}

/** A policy's conditions must all hold; a form's `required` jqQuery must list the input. */
function checksOf(rule: AccessRule): ConditionCheck[] {
  if (rule.kind === 'conditions') return rule.expressions.map((expression) => ({ expression }));
  if (rule.kind === 'form-required') return [{ expression: rule.expression, lists: rule.input }];
  return [];
}

/** Every check must hold for the user (the docs do not say how conditions combine: each one restricts). */
function holdersFromOutcomes(site: PermissionSite, forms: readonly TeamForm[], answered: ReadonlyMap<string, { outcomes: ConditionOutcomes; slots: Int32Array[] }>, people: People): Holders[] {
  const checks = checksOf(site.rule).map((check) => answered.get(checkKey(check))!);
  for (const { outcomes: result } of checks) {
    if (!result.ok) {
      const why = result.failure === 'timeout' ? 'its evaluation timed out' : result.failure === 'crash' ? 'jq crashed while evaluating it' : 'jq does not compile it';
      const reason = `${why} (${result.error ?? 'no answer'}), so who it lets through is unknown`;
      return forms.map((): Holders => ({ kind: 'undecidable', reason }));
    }
  }
  return forms.map((_, f): Holders => {
    const holds = new Uint8Array(people.users.length).fill(1);
    for (const { outcomes, slots } of checks) {
      const text = (outcomes as { outcomes: string }).outcomes;
      const slot = slots[f]!;
      for (let u = 0; u < holds.length; u++) if (holds[u] === 1 && text.charCodeAt(slot[u]!) !== ONE) holds[u] = 0;
    }
    return { kind: 'known', holds: withAdmins(site, people, holds) };
  });
}

const ONE = '1'.charCodeAt(0);

/**
 * The users, with what is worked out once for all sites: each user's profile (teams and roles:
 * an explicit list answers the same for all who share one, but for the emails it names), where
 * each email is, and the admins.
 */
interface People {
  users: readonly AccessUser[];
  profile: Int32Array;
  /** One user of each profile. */
  profiles: AccessUser[];
  indexOf: ReadonlyMap<string, number>;
  admins: number[];
  /** Explicit lists worked out so far, by form and content. */
  lists: Map<string, Uint8Array>;
}

function peopleOf(users: readonly AccessUser[]): People {
  const ids = new Map<string, number>();
  const profiles: AccessUser[] = [];
  const profile = Int32Array.from(users, (user) => {
    const key = JSON.stringify([user.names, user.identifiers, user.roles]);
    let id = ids.get(key);
    if (id === undefined) {
      ids.set(key, (id = profiles.length));
      profiles.push(user);
    }
    return id;
  });
  const admins = users.flatMap((user, i) => (user.admin ? [i] : []));
  return { users, profile, profiles, indexOf: new Map(users.map((user, i) => [user.email, i])), admins, lists: new Map() };
}

/** Admins hold every right to run, approve and read, whatever the rule says (`holds` is changed). */
function withAdmins(site: PermissionSite, people: People, holds: Uint8Array): Uint8Array {
  if (!ADMIN_HOLDS.has(site.permission)) return holds;
  for (const i of people.admins) holds[i] = 1;
  return holds;
}

/**
 * Explicit lists: a role, the user's email, or one of the user's teams. After the migration the
 * list's titles and the user's teams are both identifiers, through the same mapping. `ownedByTeam`
 * compares the user's teams with the entity's, which the migration rewrites alike: it never
 * changes who has access, and without the entity it cannot be computed, so it is not.
 */
function listHolders(catalog: Catalog, site: PermissionSite, rule: Extract<AccessRule, { kind: 'lists' }>, people: People, form: TeamForm): Uint8Array {
  // Big orgs repeat one list on many actions: each list is worked out once per form and admin
  // rule, and its flags are shared by those sites (no reader changes them).
  const key = JSON.stringify([form, ADMIN_HOLDS.has(site.permission), rule.teams, rule.roles, rule.users]);
  let known = people.lists.get(key);
  if (!known) {
    const teams = new Set(form === 'titles' ? rule.teams : rule.teams.map((team) => teamIdentifier(catalog.teams, team)));
    const roles = new Set(rule.roles);
    const byProfile = people.profiles.map((user) => user.roles.some((role) => roles.has(role)) || (form === 'titles' ? user.names : user.identifiers).some((team) => teams.has(team)));
    known = new Uint8Array(people.profile.length);
    for (let i = 0; i < known.length; i++) if (byProfile[people.profile[i]!]) known[i] = 1;
    for (const email of rule.users) {
      const i = people.indexOf.get(email);
      if (i !== undefined) known[i] = 1;
    }
    people.lists.set(key, (known = withAdmins(site, people, known)));
  }
  return known;
}

/** Of the resource's findings, the one at (or under) one of the site's locations; a breaking one first. */
function causingFinding(site: PermissionSite, findings: readonly Finding[]): Finding | undefined {
  const under = (location: string) => site.locations.some((prefix) => location === prefix || location.startsWith(`${prefix}.`) || location.startsWith(`${prefix}[`));
  const candidates = findings.filter((f) => under(f.location));
  const rank = (f: Finding) => (f.verdict === 'breaks' ? 0 : f.verdict === 'review' ? 1 : 2);
  return [...candidates].sort((a, b) => rank(a) - rank(b))[0];
}

function siteKey(site: Pick<AccessChange, 'resource' | 'permission' | 'input'>): string {
  return [site.resource.type, site.resource.identifier, site.permission, site.input ?? ''].join('\u0000');
}

/** Sorted like findings: resource type, identifier, then permission and input. */
function compareChanges(a: AccessChange, b: AccessChange): number {
  return (
    compareText(a.resource.type, b.resource.type) ||
    compareText(a.resource.identifier, b.resource.identifier) ||
    compareText(a.permission, b.permission) ||
    compareText(a.input ?? '', b.input ?? '')
  );
}

/**
 * docs/formats.md, the report `impact.users`: on each finding that changes a permission, how many people
 * lose it and gain it, from the access entries that name it (several inputs or stages add up).
 */
export function withUserImpact(findings: readonly Finding[], access: readonly AccessChange[]): Finding[] {
  const counts = new Map<string, { loses: number; gains: number }>();
  for (const change of access) {
    if (change.finding === undefined || (change.loses === undefined && change.gains === undefined)) continue;
    const count = counts.get(change.finding) ?? { loses: 0, gains: 0 };
    count.loses += change.loses?.length ?? 0;
    count.gains += change.gains?.length ?? 0;
    counts.set(change.finding, count);
  }
  return findings.map((finding) => {
    const users = counts.get(finding.id);
    return users ? { ...finding, impact: { ...finding.impact, users } } : finding;
  });
}

/** Ours: condition runs per jq request for the email parts (engine time limit, as BATCH_EVALUATIONS). */
const SPLIT_RETRY_USERS = 500;
const SPLIT_BATCH_EVALUATIONS = 4_000;
const SPLIT_BATCH_CHARS = 32 * 1024;

/**
 * A batch that timed out or crashed, again in smaller requests: its parts in two halves, or a lone
 * part's users in runs of SPLIT_RETRY_USERS; a lone part on that few users fails for its own sake
 * (a loop), and is given up.
 */
function halves(items: readonly { rest: string; users: number[] }[]): { rest: string; users: number[] }[][] {
  if (items.length > 1) return [items.slice(0, items.length >> 1), items.slice(items.length >> 1)];
  const [item] = items;
  if (!item || item.users.length <= SPLIT_RETRY_USERS) return [];
  const runs: { rest: string; users: number[] }[][] = [];
  for (let start = 0; start < item.users.length; start += SPLIT_RETRY_USERS) runs.push([{ rest: item.rest, users: item.users.slice(start, start + SPLIT_RETRY_USERS) }]);
  return runs;
}

/** What a part of a condition reads of the user, by its paths: `none` of the team values, or only them. */
function partReads(text: string): 'no-team' | 'only-teams' | 'more' {
  const reads = userFieldsRead(text);
  if (reads.kind === 'everything') return 'more';
  if (!reads.fields.has('teams')) return 'no-team';
  return reads.fields.has('email') || reads.fields.has('roles') ? 'more' : 'only-teams';
}

/**
 * Sites with one condition of the shape `<teams part> or|and <email part>`, answered without one
 * context per user: the teams part per distinct team list in both worlds, the email part (the same
 * in both: it reads no team value) only for the users whose teams part flips, each (part, user)
 * once however many sites share the part. For users whose teams part does not flip the outcome is
 * the same in both worlds and is given as the teams part's: only flips are read from these holders
 * (computeAccess). A site whose parts give no answer somewhere is left to the ordinary path.
 */
function splitSiteHolders(jq: JqEngine, sites: readonly PermissionSite[], people: People, answers: (Holders[] | undefined)[]): void {
  const { users } = people;
  const split = new Map<number, SplitCondition>();
  sites.forEach((site, index) => {
    if (answers[index] !== undefined || site.rule.kind !== 'conditions' || site.rule.expressions.length !== 1) return;
    const expression = site.rule.expressions[0]!;
    if (partReads(expression) === 'only-teams') return; // one context per team list already
    const parts = splitCondition(expression, (text) => partReads(text) !== 'no-team');
    if (parts && partReads(parts.teams) === 'only-teams') split.set(index, parts);
  });
  if (split.size === 0) return;
  // The teams part: one context per distinct team list and world, as for any condition.
  const { contexts, slots } = distinctUserContexts(users, ['titles', 'identifiers'], { email: false, roles: false });
  const teamOutcomes = userConditionOutcomes(jq, [...split.values()].map((parts) => ({ expression: parts.teams })), contexts);
  const pending: { index: number; parts: SplitCondition; before: string; after: string; flips: number[] }[] = [];
  const codes = new Uint8Array(users.length);
  const perUser = (slot: Int32Array, outcomes: string) => {
    for (let u = 0; u < slot.length; u++) codes[u] = outcomes.charCodeAt(slot[u]!);
    return outcomeText(codes);
  };
  for (const [index, parts] of split) {
    const outcome = teamOutcomes.get(checkKey({ expression: parts.teams }));
    if (!outcome?.ok) continue;
    const before = perUser(slots[0]!, outcome.outcomes);
    const after = perUser(slots[1]!, outcome.outcomes);
    if (/[^01]/.test(before + after)) continue;
    const flips: number[] = [];
    for (let u = 0; u < users.length; u++) if (before[u] !== after[u]) flips.push(u);
    pending.push({ index, parts, before, after, flips });
  }
  const rest = restOutcomes(jq, pending, users);
  for (const item of pending) {
    const answered = rest.get(item.parts.rest);
    if (item.flips.some((u) => !answered?.has(u))) continue;
    const holds = (teams: string) => Uint8Array.from(teams, (c) => (c === '1' ? 1 : 0));
    const before = holds(item.before);
    const after = holds(item.after);
    for (const u of item.flips) {
      const restHolds = answered!.get(u) === '1';
      // `x or r`: the side whose teams part holds holds; the other holds as r does. `x and r` the reverse.
      if (item.parts.op === 'or') {
        before[u] = item.before[u] === '1' || restHolds ? 1 : 0;
        after[u] = item.after[u] === '1' || restHolds ? 1 : 0;
      } else {
        before[u] = item.before[u] === '1' && restHolds ? 1 : 0;
        after[u] = item.after[u] === '1' && restHolds ? 1 : 0;
      }
    }
    const site = sites[item.index]!;
    answers[item.index] = [
      { kind: 'known', holds: withAdmins(site, people, before) },
      { kind: 'known', holds: withAdmins(site, people, after) },
    ];
  }
}

/**
 * The email part on each of `wanted` users in JavaScript, when its shape is one fast-conditions.ts
 * claims (false, and nothing kept, when it is not, or is given up on some user: jq answers then).
 */
function answeredHere(rest: string, wanted: ReadonlySet<number>, users: readonly AccessUser[], into: Map<number, string>): boolean {
  const fast = compileFastCheck({ expression: rest });
  if (!fast) return false;
  const outcomes: [number, string][] = [];
  for (const u of wanted) {
    const outcome = fast(userContextObject(userContext(users[u]!, 'titles', { email: true, roles: true })));
    if (outcome === undefined) return false;
    outcomes.push([u, outcome]);
  }
  for (const [u, outcome] of outcomes) into.set(u, outcome);
  return true;
}

/**
 * The email part of each pending site on the users whose teams part flips, keyed by part and
 * user: a part shared by many sites runs once per user of any of them. Parts share requests, each
 * on its own slice of the input, all sent at once over the jq workers. A request jq does not
 * answer leaves its parts unanswered, and their sites to the ordinary path.
 */
function restOutcomes(jq: JqEngine, pending: readonly { parts: SplitCondition; flips: number[] }[], users: readonly AccessUser[]): Map<string, Map<number, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const { parts, flips } of pending) {
    let set = wanted.get(parts.rest);
    if (!set) wanted.set(parts.rest, (set = new Set()));
    for (const u of flips) set.add(u);
  }
  const results = new Map<string, Map<number, string>>();
  const batches: { rest: string; users: number[] }[][] = [];
  let batch: { rest: string; users: number[] }[] = [];
  let evaluations = 0;
  let chars = 0;
  for (const [rest, set] of wanted) {
    results.set(rest, new Map());
    if (set.size === 0 || (jq.answersAsJq && answeredHere(rest, set, users, results.get(rest)!))) continue;
    if (batch.length > 0 && (evaluations + set.size > SPLIT_BATCH_EVALUATIONS || chars + rest.length > SPLIT_BATCH_CHARS)) {
      batches.push(batch);
      batch = [];
      evaluations = 0;
      chars = 0;
    }
    batch.push({ rest, users: [...set] });
    evaluations += set.size;
    chars += rest.length + 200;
  }
  if (batch.length > 0) batches.push(batch);
  // A request that gives no answer (a time limit passed on a loaded machine) is asked again in
  // smaller ones (halves): only what fails on its own is left to the ordinary path.
  let asked = batches;
  while (asked.length > 0) {
    const calls = asked.map((items) => ({
      input: items.map((item) => item.users.map((u) => userContext(users[u]!, 'titles', { email: true, roles: true }))) as JsonValue,
      expression: `[${items.map((item, i) => `(.[${i}] | map(${USER_CONTEXT}) | ${program({ expression: item.rest }, 'safe')})`).join(',\n')}]`,
    }));
    const answered = jq.evaluateEach ? jq.evaluateEach(calls) : calls.map((call) => jq.evaluate(call.input, call.expression));
    const again: { rest: string; users: number[] }[][] = [];
    answered.forEach((result, b) => {
      const items = asked[b]!;
      const [answers] = result.ok ? result.values : [];
      if (!Array.isArray(answers) || answers.length !== items.length) {
        if (!result.ok && result.failure !== undefined) again.push(...halves(items));
        return;
      }
      items.forEach((item, i) => {
        const answer = answers[i];
        if (typeof answer !== 'string' || answer.length !== item.users.length) return;
        const map = results.get(item.rest)!;
        item.users.forEach((u, k) => map.set(u, answer[k]!));
      });
    });
    asked = again;
  }
  return results;
}
