import type { Catalog } from '../catalog/catalog.js';
import { checkKey, conditionOutcomes, program, type ConditionCheck, type ConditionOutcomes } from '../jq/condition-outcomes.js';
import type { JqEngine } from '../jq/engine.js';
import { splitCondition, type SplitCondition } from './split-condition.js';
import { extractReferences } from '../jq/references.js';
import type { AccessChange } from '../model/access.js';
import type { Finding } from '../model/finding.js';
import type { JsonValue } from '../model/json.js';
import { permissionSites, type AccessRule, type PermissionSite } from './permission-sites.js';
import { teamIdentifier, type Person as AccessUser } from '../catalog/people.js';
import { distinctUserContexts, unknownDataRead, USER_CONTEXT, userContext, type TeamForm } from './user-contexts.js';

export type { TeamForm };

/**
 * Who holds one permission in one form: one flag per user (in the order of the users given), or
 * why that cannot be known. Flags, not sets of emails: thousands of permissions times thousands
 * of users stay a few megabytes.
 */
export type Holders = { kind: 'known'; holds: Uint8Array } | { kind: 'undecidable'; reason: string };

/** Permissions the service's admins hold whatever the configuration says. */
const ADMIN_HOLDS: ReadonlySet<string> = new Set(['execute', 'approve', 'read']);

/**
 * report.access (contracts.md §3.3): for every permission a team finding touches, who holds it
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
  // Issue 21: every gate, not only those with a finding: a reference judged unaffected by mistake
  // still shows here if its outcome flips for someone.
  const touched = permissionSites(catalog).map((site) => ({ site, finding: causingFinding(site, byResource.get(`${site.resource.type}\u0000${site.resource.identifier}`) ?? []) }));
  const holders = holdersOfSites(catalog, touched.map((t) => t.site), users, ['titles', 'identifiers']);
  const changes: AccessChange[] = [];
  touched.forEach(({ site, finding }, index) => {
    const [before, after] = holders[index] as [Holders, Holders];
    const change: AccessChange = { resource: site.resource, permission: site.permission, ...(site.input !== undefined && { input: site.input }), ...(finding && { finding: finding.id }) };
    if (before.kind === 'undecidable' || after.kind === 'undecidable') {
      // Said only where a finding names the place: elsewhere nothing reads team values to flip.
      if (finding) changes.push({ ...change, undecidable: before.kind === 'undecidable' ? before.reason : (after as { reason: string }).reason });
      return;
    }
    const loses = users.filter((_, i) => before.holds[i] && !after.holds[i]).map((u) => u.email);
    const gains = users.filter((_, i) => !before.holds[i] && after.holds[i]).map((u) => u.email);
    if (loses.length > 0) change.loses = loses;
    if (gains.length > 0) change.gains = gains;
    if (loses.length + gains.length > 0) changes.push(change);
  });
  return changes.sort(compareChanges);
}

/** The org's team values are identifiers already: the flag, the recorded state or its shapes say so. */
export const orgHasMigrated = (catalog: Pick<Catalog, 'migrated' | 'migrationRan'>): boolean => catalog.migrated || catalog.migrationRan;

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
  const holders = holdersOfSites(catalog, asked.map((entry) => sites.get(siteKey(entry))!), users, ['identifiers']);
  const result: AccessChange[] = [];
  asked.forEach((entry, index) => {
    const [now] = holders[index] as [Holders];
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
 * Who holds each site's permission in each of `forms`. Every expression of every site runs in
 * batches over the same user contexts: users with the same teams (and roles, and email where an
 * expression reads them) give the same answer, so jq sees each distinct context once per form.
 */
export function holdersOfSites(catalog: Catalog, sites: readonly PermissionSite[], users: readonly AccessUser[], forms: readonly TeamForm[]): Holders[][] {
  const answers: (Holders[] | undefined)[] = sites.map((site) => {
    const rule = site.rule;
    if (rule.kind === 'lists') return forms.map((form): Holders => ({ kind: 'known', holds: withAdmins(site, users, listHolders(catalog, rule, users, form)) }));
    for (const { expression } of checksOf(rule)) {
      const reason = unknownDataRead(expression);
      if (reason !== undefined) return forms.map((): Holders => ({ kind: 'undecidable', reason }));
    }
    if (!catalog.jq) return forms.map((): Holders => ({ kind: 'undecidable', reason: 'jq is not loaded, so the conditions were not run' }));
    return undefined; // run below, with the others that read the same parts of the user
  });
  const jq = catalog.jq;
  if (!jq) return answers as Holders[][];

  // Issue 21: a condition reading the email as well as teams runs its teams part per team list
  // and its email part only for those whose teams part flips (split-condition.ts).
  if (forms.length === 2) splitSiteHolders(jq, sites, users, answers);

  const variants = new Map<string, number[]>();
  sites.forEach((site, index) => {
    if (answers[index] !== undefined) return;
    const text = checksOf(site.rule).map((check) => check.expression).join('\n');
    const key = `${/email|\\u/.test(text)}:${/role|\\u/.test(text)}`;
    const group = variants.get(key);
    if (group) group.push(index);
    else variants.set(key, [index]);
  });
  for (const [key, indexes] of variants) {
    const [email, roles] = key.split(':').map((flag) => flag === 'true') as [boolean, boolean];
    const { contexts, slots } = distinctUserContexts(users, forms, { email, roles });
    const outcomes = conditionOutcomes(jq, indexes.flatMap((i) => checksOf(sites[i]!.rule)), contexts, USER_CONTEXT);
    for (const index of indexes) answers[index] = holdersFromOutcomes(sites[index]!, outcomes, slots, users);
  }
  return answers as Holders[][];
}

/** A policy's conditions must all hold; a form's `required` jqQuery must list the input. */
function checksOf(rule: AccessRule): ConditionCheck[] {
  if (rule.kind === 'conditions') return rule.expressions.map((expression) => ({ expression }));
  if (rule.kind === 'form-required') return [{ expression: rule.expression, lists: rule.input }];
  return [];
}

/** Every check must hold for the user (the docs do not say how conditions combine: each one restricts). */
function holdersFromOutcomes(site: PermissionSite, outcomes: ReadonlyMap<string, ConditionOutcomes>, slots: readonly number[][], users: readonly AccessUser[]): Holders[] {
  const answers: string[] = [];
  for (const check of checksOf(site.rule)) {
    const result = outcomes.get(checkKey(check));
    if (!result?.ok) {
      const why = result?.failure === 'timeout' ? 'its evaluation timed out' : result?.failure === 'crash' ? 'jq crashed while evaluating it' : 'jq does not compile it';
      const reason = `${why} (${result?.error ?? 'no answer'}), so who it lets through is unknown`;
      return slots.map((): Holders => ({ kind: 'undecidable', reason }));
    }
    answers.push(result.outcomes);
  }
  const passes = (slot: number) => answers.every((outcomes) => outcomes[slot] === '1');
  return slots.map((slot): Holders => ({ kind: 'known', holds: withAdmins(site, users, Uint8Array.from(users, (_, i) => (passes(slot[i]!) ? 1 : 0))) }));
}

/** Admins hold every right to run, approve and read, whatever the rule says. */
function withAdmins(site: PermissionSite, users: readonly AccessUser[], holds: Uint8Array): Uint8Array {
  if (!ADMIN_HOLDS.has(site.permission)) return holds;
  users.forEach((user, i) => {
    if (user.admin) holds[i] = 1;
  });
  return holds;
}

/**
 * Explicit lists: a role, the user's email, or one of the user's teams. After the migration the
 * list's titles and the user's teams are both identifiers, through the same mapping. `ownedByTeam`
 * compares the user's teams with the entity's, which the migration rewrites alike: it never
 * changes who has access, and without the entity it cannot be computed, so it is not.
 */
function listHolders(catalog: Catalog, rule: Extract<AccessRule, { kind: 'lists' }>, users: readonly AccessUser[], form: TeamForm): Uint8Array {
  const teams = new Set(form === 'titles' ? rule.teams : rule.teams.map((team) => teamIdentifier(catalog.teams, team)));
  const roles = new Set(rule.roles);
  const emails = new Set(rule.users);
  const holds = (user: AccessUser) => emails.has(user.email) || user.roles.some((role) => roles.has(role)) || (form === 'titles' ? user.names : user.identifiers).some((team) => teams.has(team));
  return Uint8Array.from(users, (user) => (holds(user) ? 1 : 0));
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

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
 * contracts.md §3.4 `impact.users`: on each finding that changes a permission, how many people
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

/** Ours: condition runs per jq request when each site runs on its own users (engine time limit, as BATCH_EVALUATIONS). */
const SPLIT_BATCH_EVALUATIONS = 8_000;
const SPLIT_BATCH_CHARS = 32 * 1024;

/** A part of a condition that reads no team value: only `.user.email`, `.user.roles` (or the run's user's). */
function readsNoTeam(text: string): boolean {
  if (/team|\\u|getpath|paths|to_entries|tostring|tojson|\.\.|\$__|input|env|\$ENV/.test(text)) return false;
  const result = extractReferences(text);
  if (!result.ok) return false;
  return result.references.paths.every((path) => {
    if (path.variable !== undefined) return false;
    const [a, b, c, d] = path.segments;
    return (a === 'user' && (b === 'email' || b === 'roles')) || (a === 'trigger' && b === 'by' && c === 'user' && (d === 'email' || d === 'roles')) || (a === 'trigger' && b === 'user' && (c === 'email' || c === 'roles'));
  });
}

/**
 * Sites with one condition of the shape `<teams part> or|and <email part>`, answered without one
 * context per user: the teams part per distinct team list in both worlds, the email part (the same
 * in both) only for the users whose teams part flips, each site on its own users in shared
 * requests. For users whose teams part does not flip the outcome is the same in both worlds and is
 * given as the teams part's: only flips are read from these holders (computeAccess). A site whose
 * parts give no answer somewhere is left to the ordinary path.
 */
function splitSiteHolders(jq: JqEngine, sites: readonly PermissionSite[], users: readonly AccessUser[], answers: (Holders[] | undefined)[]): void {
  const split = new Map<number, SplitCondition>();
  sites.forEach((site, index) => {
    if (answers[index] !== undefined || site.rule.kind !== 'conditions' || site.rule.expressions.length !== 1) return;
    const expression = site.rule.expressions[0]!;
    if (!/email|role/.test(expression)) return;
    const parts = splitCondition(expression, (text) => !readsNoTeam(text));
    if (parts && !/email|role|\\u/.test(parts.teams)) split.set(index, parts);
  });
  if (split.size === 0) return;
  // The teams part: one context per distinct team list and world, as for any condition.
  const { contexts, slots } = distinctUserContexts(users, ['titles', 'identifiers'], { email: false, roles: false });
  const teamOutcomes = conditionOutcomes(jq, [...split.values()].map((parts) => ({ expression: parts.teams })), contexts, USER_CONTEXT);
  const pending: { index: number; parts: SplitCondition; before: string; after: string; flips: number[] }[] = [];
  for (const [index, parts] of split) {
    const outcome = teamOutcomes.get(checkKey({ expression: parts.teams }));
    if (!outcome?.ok) continue;
    const before = slots[0]!.map((slot) => outcome.outcomes[slot]!).join('');
    const after = slots[1]!.map((slot) => outcome.outcomes[slot]!).join('');
    if (/[^01]/.test(before + after)) continue;
    const flips: number[] = [];
    for (let u = 0; u < users.length; u++) if (before[u] !== after[u]) flips.push(u);
    pending.push({ index, parts, before, after, flips });
  }
  const rest = restOutcomes(jq, pending, users);
  for (const item of pending) {
    const answered = rest.get(item.index);
    if (answered === undefined) continue;
    const holds = (teams: string) => Uint8Array.from(users, (_, u) => (teams[u] === '1' ? 1 : 0));
    const before = holds(item.before);
    const after = holds(item.after);
    item.flips.forEach((u, k) => {
      const restHolds = answered[k] === '1';
      // `x or r`: the side whose teams part holds holds; the other holds as r does. `x and r` the reverse.
      if (item.parts.op === 'or') {
        before[u] = item.before[u] === '1' || restHolds ? 1 : 0;
        after[u] = item.after[u] === '1' || restHolds ? 1 : 0;
      } else {
        before[u] = item.before[u] === '1' && restHolds ? 1 : 0;
        after[u] = item.after[u] === '1' && restHolds ? 1 : 0;
      }
    });
    const site = sites[item.index]!;
    answers[item.index] = [
      { kind: 'known', holds: withAdmins(site, users, before) },
      { kind: 'known', holds: withAdmins(site, users, after) },
    ];
  }
}

/**
 * The email part of each pending site on that site's flipping users only: sites share requests,
 * each running on its own slice of the input. A request jq does not answer leaves its sites to the
 * ordinary path.
 */
function restOutcomes(jq: JqEngine, pending: readonly { index: number; parts: SplitCondition; flips: number[] }[], users: readonly AccessUser[]): Map<number, string> {
  const results = new Map<number, string>();
  let batch: typeof pending[number][] = [];
  let evaluations = 0;
  let chars = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const input = batch.map((item) => item.flips.map((u) => userContext(users[u]!, 'titles', { email: true, roles: true })));
    const programText = `[${batch.map((item, i) => `(.[${i}] | map(${USER_CONTEXT}) | ${program({ expression: item.parts.rest }, 'safe')})`).join(',\n')}]`;
    const result = jq.evaluate(input as JsonValue, programText);
    const [answers] = result.ok ? result.values : [];
    if (Array.isArray(answers) && answers.length === batch.length) {
      batch.forEach((item, i) => {
        const answer = answers[i];
        if (typeof answer === 'string' && answer.length === item.flips.length) results.set(item.index, answer);
      });
    }
    batch = [];
    evaluations = 0;
    chars = 0;
  };
  for (const item of pending) {
    if (item.flips.length === 0) {
      results.set(item.index, '');
      continue;
    }
    if (batch.length > 0 && (evaluations + item.flips.length > SPLIT_BATCH_EVALUATIONS || chars + item.parts.rest.length > SPLIT_BATCH_CHARS)) flush();
    batch.push(item);
    evaluations += item.flips.length;
    chars += item.parts.rest.length + 200;
  }
  flush();
  return results;
}
