import type { Catalog } from '../catalog/catalog.js';
import { firstOutputs, holds, type FirstOutput } from '../jq/first-output.js';
import { extractReferences } from '../jq/references.js';
import type { AccessChange } from '../model/access.js';
import type { Finding } from '../model/finding.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { permissionSites, type AccessRule, type PermissionSite } from './permission-sites.js';
import { accessUsers, teamIdentifier, type AccessUser } from './users.js';

/** Team values as they are before the migration (titles) and after it, if nothing is changed (identifiers). */
export type TeamForm = 'titles' | 'identifiers';

/** Who holds one permission in one form: their emails, or why that cannot be known. */
export type Holders = { kind: 'known'; emails: ReadonlySet<string> } | { kind: 'undecidable'; reason: string };

/**
 * Context keys the service fills at run time from data this tool does not have: a condition that
 * reads one gives an answer per entity or per form, not per user, so it is not guessed.
 */
const UNKNOWN_DATA: Readonly<Record<string, string>> = {
  results: "the entities the policy's queries find",
  entity: 'the entity the action runs on',
  form: 'what the user fills into the form',
  inputs: 'what the user fills into the form',
  trigger: 'the run that triggered it',
  diff: 'the entity change that triggered it',
  event: 'the event that triggered it',
  run: 'the action run',
};

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
  const users = accessUsers(raw, catalog.teams);
  const changes: AccessChange[] = [];
  for (const site of permissionSites(catalog)) {
    // Only a place that reads team values can change with them: the rest costs no jq run.
    const finding = causingFinding(site, findings);
    if (finding === undefined) continue;
    const [before, after] = siteHolders(catalog, site, users, ['titles', 'identifiers']) as [Holders, Holders];
    const change: AccessChange = { resource: site.resource, permission: site.permission, ...(site.input !== undefined && { input: site.input }), finding: finding.id };
    if (before.kind === 'undecidable' || after.kind === 'undecidable') {
      changes.push({ ...change, undecidable: before.kind === 'undecidable' ? before.reason : (after as { reason: string }).reason });
      continue;
    }
    const loses = users.filter((u) => before.emails.has(u.email) && !after.emails.has(u.email)).map((u) => u.email);
    const gains = users.filter((u) => !before.emails.has(u.email) && after.emails.has(u.email)).map((u) => u.email);
    if (loses.length > 0) change.loses = loses;
    if (gains.length > 0) change.gains = gains;
    if (loses.length + gains.length > 0) changes.push(change);
  }
  return changes.sort(compareChanges);
}

/**
 * After the migration (`--since`): of the people an earlier report said would lose a
 * permission, those who still do not hold it in the org as it is now (team values are
 * identifiers). Entries nobody is locked out of any more are left out.
 */
export function stillLockedOut(previous: readonly AccessChange[], catalog: Catalog): AccessChange[] {
  const raw = catalog.snapshot.users;
  if (!Array.isArray(raw)) return [];
  const users = accessUsers(raw, catalog.teams);
  const sites = new Map(permissionSites(catalog).map((site) => [siteKey(site), site]));
  const result: AccessChange[] = [];
  for (const entry of previous) {
    if (!entry.loses || entry.loses.length === 0) continue;
    const site = sites.get(siteKey(entry));
    if (!site) continue; // the resource or permission is gone: nobody is locked out of it
    const [now] = siteHolders(catalog, site, users, ['identifiers']) as [Holders];
    const { gains: _gains, undecidable: _undecidable, ...rest } = entry;
    if (now.kind === 'undecidable') {
      result.push({ ...rest, undecidable: now.reason });
      continue;
    }
    const locked = entry.loses.filter((email) => !now.emails.has(email));
    if (locked.length > 0) result.push({ ...rest, loses: locked });
  }
  return result.sort(compareChanges);
}

/** Who holds the site's permission in each of `forms`. */
export function siteHolders(catalog: Catalog, site: PermissionSite, users: readonly AccessUser[], forms: readonly TeamForm[]): Holders[] {
  const admins = ADMIN_HOLDS.has(site.permission) ? users.filter((u) => u.admin).map((u) => u.email) : [];
  const rule = site.rule;
  if (rule.kind === 'lists') return forms.map((form) => ({ kind: 'known', emails: new Set([...admins, ...listHolders(catalog, rule, users, form)]) }));
  const expressions = rule.kind === 'conditions' ? rule.expressions : [rule.expression];
  for (const expression of expressions) {
    const reason = unknownDataRead(expression);
    if (reason !== undefined) return forms.map(() => ({ kind: 'undecidable', reason }));
  }
  if (!catalog.jq) return forms.map(() => ({ kind: 'undecidable', reason: 'jq is not loaded, so the conditions were not run' }));

  // Users with the same teams (and roles, and email where the expression reads them) give the
  // same answer: jq runs once per distinct context, for every form in one request.
  const text = expressions.join('\n');
  const reads = { email: /email|\\u/.test(text), roles: /role|\\u/.test(text) };
  const contexts: JsonValue[] = [];
  const indexOf = new Map<string, number>();
  const slots = forms.map((form) =>
    users.map((user) => {
      const context = userContext(user, form, reads);
      const key = JSON.stringify(context);
      let index = indexOf.get(key);
      if (index === undefined) {
        index = contexts.length;
        indexOf.set(key, index);
        contexts.push(context);
      }
      return index;
    }),
  );
  const passes = new Array<boolean>(contexts.length).fill(true);
  for (const expression of expressions) {
    const result = firstOutputs(catalog.jq, expression, contexts);
    if (!result.ok) {
      const why = result.failure === 'timeout' ? 'its evaluation timed out' : result.failure === 'crash' ? 'jq crashed while evaluating it' : 'jq does not compile it';
      return forms.map(() => ({ kind: 'undecidable', reason: `${why} (${result.error}), so who it lets through is unknown` }));
    }
    result.outputs.forEach((output, index) => {
      if (!decides(rule, output)) passes[index] = false;
    });
  }
  return slots.map((slot) => ({ kind: 'known', emails: new Set([...admins, ...users.filter((_, i) => passes[slot[i]!]).map((u) => u.email)]) }));
}

/** A condition holds on its first output; the form's `required` lists the inputs it requires. */
function decides(rule: AccessRule, output: FirstOutput): boolean {
  if (rule.kind === 'form-required') return output.kind === 'value' && Array.isArray(output.value) && output.value.includes(rule.input);
  return holds(output);
}

/**
 * Explicit lists: a role, the user's email, or one of the user's teams. After the migration the
 * list's titles and the user's teams are both identifiers, through the same mapping. `ownedByTeam`
 * compares the user's teams with the entity's, which the migration rewrites alike: it never
 * changes who has access, and without the entity it cannot be computed, so it is not.
 */
function listHolders(catalog: Catalog, rule: Extract<AccessRule, { kind: 'lists' }>, users: readonly AccessUser[], form: TeamForm): string[] {
  const teams = new Set(form === 'titles' ? rule.teams : rule.teams.map((team) => teamIdentifier(catalog.teams, team)));
  const roles = new Set(rule.roles);
  const emails = new Set(rule.users);
  return users
    .filter((user) => emails.has(user.email) || user.roles.some((role) => roles.has(role)) || (form === 'titles' ? user.titles : user.identifiers).some((team) => teams.has(team)))
    .map((user) => user.email);
}

/**
 * The user as a condition or an input's jqQuery sees them: `.user.team` and `.user.teams` hold
 * the same team values (the first is the builder's name, the second the users API's); the run's
 * `trigger.by.user` is the same person.
 */
function userContext(user: AccessUser, form: TeamForm, reads: { email: boolean; roles: boolean }): JsonObject {
  const teams = form === 'titles' ? user.titles : user.identifiers;
  const person: JsonObject = { team: teams, teams };
  if (reads.email) person.email = user.email;
  if (reads.roles) person.roles = user.roles;
  return { user: person, trigger: { by: { user: person } } };
}

/** Why an expression's answer depends on data the tool does not have, or undefined when it reads only the user. */
function unknownDataRead(expression: string): string | undefined {
  const result = extractReferences(expression);
  if (!result.ok) return `this tool could not read its jq (${result.error.message}), so what it depends on is unknown`;
  for (const path of result.references.paths) {
    const [first, second, third] = path.segments;
    if (path.variable !== undefined || first === undefined) continue;
    if (first === 'trigger' && second === 'by' && third === 'user') continue;
    const what = UNKNOWN_DATA[first];
    if (what !== undefined) return `it reads .${first} (${what}), which this tool does not have, so who it lets through depends on data and is not guessed`;
  }
  return undefined;
}

/** The finding at (or under) one of the site's locations; a breaking one first. */
function causingFinding(site: PermissionSite, findings: readonly Finding[]): Finding | undefined {
  const under = (location: string) => site.locations.some((prefix) => location === prefix || location.startsWith(`${prefix}.`) || location.startsWith(`${prefix}[`));
  const candidates = findings.filter((f) => f.resource.type === site.resource.type && f.resource.identifier === site.resource.identifier && under(f.location));
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
