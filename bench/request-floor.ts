/**
 * The requests a live read of an org needs (issue 41), counted from the org itself by what the
 * service's API offers (docs/live-service.md, "How many requests a read needs"), not by the fetcher's plan: bench:live prints
 * it as the request goal, test/sandbox/request-floor.test.ts holds the fetcher to it.
 *
 * - one read per list (organization, blueprints, actions, pages, integrations, webhooks, teams,
 *   scorecards, users): each answers whole, unpaged;
 * - the organization once more at the end: who answered, so two orgs are never mixed in one
 *   report (docs/outputs-and-safety.md);
 * - permissions are per resource (no endpoint lists them): every blueprint, every self-service
 *   action (an automation has none), every page but entity pages (they follow their blueprint's);
 * - entities, only where they can change a finding, by a blueprint's own search (pages of at most
 *   1,000): the team directory (`_team`) whole; a blueprint of the org's own with neither
 *   `teamInheritance` nor `ownership` one page, since whether any of its entities holds `$team`
 *   decides ownership-direct for it; one with Direct ownership and a relation to `_team` the
 *   entities still to move, all of them (the finding counts them). The search across blueprints
 *   would take all samples in one request, but its body is the query and it has no paging nor
 *   page size: its one answer holds every owned entity of every blueprint asked, so it is no
 *   read a bounded client can make;
 * - after the migration (the organization's flag): the `_user` entities whole, and per blueprint
 *   with Direct ownership and a relation to `_team`, its completed data migrations.
 */
import { isObject, type JsonObject } from '../src/model/json.js';
import type { OrgSnapshot } from '../src/model/snapshot.js';

const PAGE = 1_000;
const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE));
const filled = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== '');

export interface RequestFloor {
  total: number;
  /** What the requests are for, each with its count, in the order a read makes them. */
  parts: Array<[string, number]>;
}

function teamRelations(blueprint: JsonObject): string[] {
  const relations = isObject(blueprint.relations) ? blueprint.relations : {};
  return Object.entries(relations)
    .filter(([, relation]) => isObject(relation) && relation.target === '_team')
    .map(([id]) => id);
}

export function requestFloor(org: OrgSnapshot, migrated: boolean): RequestFloor {
  const blueprints = org.blueprints;
  const own = blueprints.filter((b) => typeof b.identifier === 'string' && !b.identifier.startsWith('_'));
  const entities = (id: unknown) => (typeof id === 'string' ? (org.entities?.[id] ?? []) : []);
  const inherits = (b: JsonObject) => b.teamInheritance !== undefined && b.teamInheritance !== null;
  const hasOwnership = (b: JsonObject) => b.ownership !== undefined && b.ownership !== null;
  const direct = own.filter((b) => !inherits(b) && isObject(b.ownership) && b.ownership.type === 'Direct' && teamRelations(b).length > 0);
  const stillToMove = (b: JsonObject) =>
    teamRelations(b).reduce((sum, relation) => sum + pages(entities(b.identifier).filter((e) => !filled(e.team) && isObject(e.relations) && filled(e.relations[relation])).length), 0);
  const hasUser = blueprints.some((b) => b.identifier === '_user');
  const parts: Array<[string, number]> = [
    ['lists (organization, blueprints, actions, pages, integrations, webhooks, teams, scorecards, users)', 9],
    ['the organization again at the end', 1],
    ['blueprint permissions', blueprints.length],
    ['self-service action permissions', (org.actions ?? []).filter((a) => !(isObject(a.trigger) && a.trigger.type === 'automation')).length],
    ['page permissions (entity pages have none)', (org.pages ?? []).filter((p) => p.type !== 'entity').length],
    ['the team directory (_team entities)', blueprints.some((b) => b.identifier === '_team') ? pages(entities('_team').length) : 0],
    ['$team samples (one page per blueprint with neither teamInheritance nor ownership)', own.filter((b) => !inherits(b) && !hasOwnership(b)).length],
    ['entities still to move (Direct ownership, a relation to _team)', direct.reduce((sum, b) => sum + stillToMove(b), 0)],
    ['_user entities (after the migration)', migrated && hasUser ? pages(entities('_user').length) : 0],
    ['completed data migrations (after the migration)', migrated ? direct.length : 0],
  ];
  return { total: parts.reduce((sum, [, count]) => sum + count, 0), parts: parts.filter(([, count]) => count > 0) };
}
