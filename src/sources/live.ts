import { ApiAuthError, ApiShapeError, ApiUnreachableError, isNotTheApi, MAX_SEARCH_PAGE, type ApiClient, type SearchQuery } from '../api/client.js';
import { relationsOf } from '../catalog/inheritance.js';
import { ApiError } from '../errors.js';
import { own, keyedRecord, isObject, type JsonObject } from '../model/json.js';
import { TEAM_BLUEPRINT, USER_BLUEPRINT, SNAPSHOT_FORMAT, type EntityRecord, type IncompleteEntry, type Organization, type OrgSnapshot } from '../model/snapshot.js';
import { idOf, isEntityPage, permissionTargets } from './permission-plan.js';
import { isAutomation } from '../catalog/resources.js';
import { isSecretName, redactSecrets, redactSnapshot } from './redact.js';
import { RedactionTally } from '../secrets/token-shapes.js';
import { fetchUsers, TEAMS_PATH, trimTeams, withTeamsFromMembers, type TeamsRead, type UsersRead } from './users.js';
import { featureFlagState } from '../catalog/migration-state.js';
import { readCompletedMigrations, relationOwnershipCandidates } from './migrations.js';
import { liveServiceRecord } from './live-service-record.js';
import { plural } from '../plural.js';
import { compareText } from '../compare-text.js';

/**
 * The live fetcher: reads the org through the read-only client and returns the same
 * org-snapshot/1 document a snapshot file holds, so analysis cannot tell the two apart.
 */
export type FetchEvent =
  | { type: 'phase'; phase: string }
  /** `settled` is false while lists whose items still add reads are not in: the total can only grow then. */
  | { type: 'progress'; done: number; total: number; settled: boolean };

/**
 * Ours: `$team` samples per blueprint. ownership-direct asks whether any entity holds `$team`,
 * quotes the first three and marks "more", so five answer exactly as the whole list would.
 */
const ENTITY_SAMPLE_SIZE = 5;
/** Every `_team` entity is read (the team directory), in pages as large as the service allows. */
const TEAM_PAGE_SIZE = MAX_SEARCH_PAGE;
/** Ours: a bound on the team directory; orgs have hundreds of teams, not tens of thousands. */
const MAX_TEAM_ENTITIES = 50_000;
/** What trimEntity keeps; `relations` is asked only of a blueprint with a relation to `_team`, the only ones kept. */
const ENTITY_FIELDS = ['$identifier', '$title', '$team'];
/** Ours: a bound on the `_user` entities read after the migration; far above any org's members. */
const MAX_USER_ENTITIES = 200_000;
/** Ours: a bound on entities still to move per relation; the rule reports their count. */
const MAX_PENDING_ENTITIES = 100_000;

interface Tracker {
  incomplete: IncompleteEntry[];
  /** Set by the first failure that stops the run: reads not yet started are not sent. */
  stopped?: boolean;
  /** Reads that answered; none at all, with every failure a 403, is a token that can read nothing. */
  answered: number;
  /** The resources whose read the service refused (HTTP 403). */
  refused: string[];
  done: number;
  total: number;
  /** Lists (blueprints, actions, pages) and the organization's flag whose follow-up reads are not counted in `total` yet. */
  uncounted: number;
  emit: (event: FetchEvent) => void;
}

function emitProgress(tracker: Tracker): void {
  tracker.emit({ type: 'progress', done: tracker.done, total: tracker.total, settled: tracker.uncounted === 0 });
}

/** Failures that stop the run instead of leaving a gap: credentials, or an API that cannot be read at all. */
const isFatal = (error: unknown) => error instanceof ApiAuthError || error instanceof ApiUnreachableError || !(error instanceof ApiError);

/** Run one read; a 403/404 or a failure after retries becomes an `incomplete` entry. Auth failures stop the run. */
async function attempt<T>(tracker: Tracker, resource: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    if (tracker.stopped) return undefined;
    const value = await read();
    tracker.answered++;
    return value;
  } catch (error) {
    // Auth, an unreachable API and our own bugs stop the run; the narrowing lets TS see an ApiError below.
    if (isFatal(error) || !(error instanceof ApiError)) {
      tracker.stopped = true;
      throw error;
    }
    tracker.incomplete.push({ resource, reason: error.message });
    if (error.status === 403) tracker.refused.push(resource);
    return undefined;
  } finally {
    tracker.done++;
    emitProgress(tracker);
  }
}

/**
 * Issue 31: a token that can read nothing is an input error (exit 2), not a report of an org nobody
 * could see. Thrown only when no read answered and the service refused every one of them.
 */
export class ApiAccessError extends ApiAuthError {
  override name = 'ApiAccessError';
  constructor(
    readonly refused: readonly string[],
    message = `${listed(refused)} each answered HTTP 403 (forbidden)`,
    options?: ErrorOptions,
  ) {
    super(message, 403, options);
  }
}

function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function objectsIn(value: unknown, what: string): JsonObject[] {
  if (!Array.isArray(value)) throw new ApiShapeError(`${what}: expected an array`);
  return value.filter(isObject);
}

function objectIn(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new ApiShapeError(`${what}: expected an object`);
  return value;
}

/** Keep only what the rules read: identifier, title, team, and the team relations' values. */
function trimEntity(entity: JsonObject, teamRelations: readonly string[]): EntityRecord | undefined {
  const identifier = idOf(entity);
  if (identifier === undefined) return undefined;
  const trimmed: EntityRecord = { identifier };
  if (typeof entity.title === 'string') trimmed.title = entity.title;
  if (entity.team !== undefined && entity.team !== null) trimmed.team = entity.team;
  if (isObject(entity.relations) && teamRelations.length > 0) {
    const relations = keyedRecord();
    for (const id of teamRelations) {
      const value = own(entity.relations, id);
      if (value !== undefined) relations[id] = value;
    }
    if (Object.keys(relations).length > 0) trimmed.relations = relations;
  }
  return trimmed;
}

interface EntitySearch {
  /**
   * An ownership sample is the first page of the blueprint's own search, `maxEntities` long. Not
   * one search across blueprints: that search has no documented paging nor page size, so its one
   * answer holds every owned entity of every blueprint asked (docs/live-service.md).
   */
  kind: 'ownership-sample' | 'pending';
  query: SearchQuery;
  /** Entities to read at most: a sample where existence is the question, all where a count is. */
  maxEntities: number;
}

/**
 * The entity searches whose answer can change a finding, per blueprint (none for `_team`, read
 * whole as the team directory). Mirrors what the rules read:
 * - ownership-direct: a non-system blueprint with neither teamInheritance nor ownership whose
 *   entities hold `$team`; the rule quotes three and marks more, so a sample of five tells the same;
 * - relation-ownership: with Direct ownership and no teamInheritance, the rule counts entities that
 *   keep a team relation but no `$team` (data still to move), so those are read in full; without
 *   Direct ownership the finding does not depend on entities at all.
 */
export function plannedEntitySearches(blueprint: JsonObject): EntitySearch[] {
  const id = idOf(blueprint);
  if (id === undefined || id.startsWith('_')) return [];
  const hasInheritance = blueprint.teamInheritance !== undefined && blueprint.teamInheritance !== null;
  if (hasInheritance) return [];
  const searches: EntitySearch[] = [];
  if (blueprint.ownership === undefined || blueprint.ownership === null) {
    searches.push({ kind: 'ownership-sample', query: { combinator: 'and', rules: [{ property: '$team', operator: 'isNotEmpty' }] }, maxEntities: ENTITY_SAMPLE_SIZE });
  }
  if (isObject(blueprint.ownership) && blueprint.ownership.type === 'Direct') {
    for (const relationId of teamRelationsOf(blueprint)) {
      const rules = [
        { property: relationId, operator: 'isNotEmpty' },
        { property: '$team', operator: 'isEmpty' },
      ];
      searches.push({ kind: 'pending', query: { combinator: 'and', rules }, maxEntities: MAX_PENDING_ENTITIES });
    }
  }
  return searches;
}

function teamRelationsOf(blueprint: JsonObject): string[] {
  return Object.entries(relationsOf(blueprint))
    .filter(([, relation]) => relation.target === TEAM_BLUEPRINT)
    .map(([id]) => id);
}

/** The per-blueprint reads: the team directory, a `$team` sample, or the entities still to move. Pages are trimmed as they arrive. */
async function readEntities(client: ApiClient, blueprint: JsonObject): Promise<EntityRecord[]> {
  const id = idOf(blueprint) as string;
  const teamRelations = teamRelationsOf(blueprint);
  const include = teamRelations.length > 0 ? [...ENTITY_FIELDS, 'relations'] : ENTITY_FIELDS;
  const byId = new Map<string, EntityRecord>();
  const keep = (entities: JsonObject[]) => {
    for (const entity of entities) {
      const trimmed = trimEntity(entity, teamRelations);
      if (trimmed && !byId.has(trimmed.identifier)) byId.set(trimmed.identifier, trimmed);
    }
  };
  if (id === TEAM_BLUEPRINT) {
    await client.searchEntities(id, { combinator: 'and', rules: [] }, { limit: TEAM_PAGE_SIZE, maxEntities: MAX_TEAM_ENTITIES, include, onPage: keep });
  } else if (id === USER_BLUEPRINT) {
    // After the migration a user's teams are `_user` entities' `team` (identifiers, keyed by the
    // email as identifier): only those two are asked for and kept; a name or anything else of a
    // user never is (docs/formats.md, the org snapshot keeps users to email, teams and roles).
    const keepUsers = (entities: JsonObject[]) => {
      for (const entity of entities) {
        const identifier = idOf(entity);
        if (identifier === undefined || byId.has(identifier)) continue;
        byId.set(identifier, entity.team === undefined || entity.team === null ? { identifier } : { identifier, team: entity.team });
      }
    };
    await client.searchEntities(id, { combinator: 'and', rules: [] }, { limit: MAX_SEARCH_PAGE, maxEntities: MAX_USER_ENTITIES, include: ['$identifier', '$team'], onPage: keepUsers });
  } else {
    for (const { kind, query, maxEntities } of plannedEntitySearches(blueprint)) {
      // A sample asks whether any entity holds `$team`: its one page of `maxEntities` says so.
      await client.searchEntities(id, query, { limit: Math.min(maxEntities, MAX_SEARCH_PAGE), maxEntities, include, onPage: keep, sample: kind === 'ownership-sample' });
    }
  }
  return [...byId.values()];
}

/** The blueprints whose entities are searched, each on its own: `_team` (the directory), and those with a planned search. */
const searchedOnItsOwn = (blueprint: JsonObject) => idOf(blueprint) === TEAM_BLUEPRINT || plannedEntitySearches(blueprint).length > 0;

/** The first reads, in the order a person meets them in the app; the refused ones are named so. */
const byReadOrder = (a: string, b: string) => READ_ORDER.indexOf(a) - READ_ORDER.indexOf(b) || compareText(a, b);

/** `unlocks`: reads wait for this list (its permissions); the others are sent once the blueprints list is in. */
const LISTS = [
  { key: 'actions', path: '/v1/actions?version=v2', payload: 'actions', unlocks: true },
  { key: 'pages', path: '/v1/pages?compact=false', payload: 'pages', unlocks: true },
  { key: 'integrations', path: '/v1/integration', payload: 'integrations', unlocks: false },
  { key: 'webhooks', path: '/v1/webhooks', payload: 'integrations', unlocks: false },
  // Every membership comes with it (users.ts), cut to emails before the snapshot keeps anything.
  { key: 'teams', path: TEAMS_PATH, payload: 'teams', unlocks: false },
  // docs/formats.md, the org snapshot. A 404 here is not read as "no scorecards": the service serves this route to
  // every org, and a 404 cannot be told from a proxy or gateway blocking it, so it stays a gap (exit 3).
  { key: 'scorecards', path: '/v1/scorecards', payload: 'scorecards', unlocks: false },
] as const;

/** Keys of the snapshot redacted as their reads land (the rest is small, redacted at the end). */
const REDACTED_ON_ARRIVAL = ['blueprints', 'actions', 'pages', 'blueprintPermissions', 'actionPermissions', 'pagePermissions'] as const;
/** Ours: list items redacted between two turns of the event loop, so answers in flight are not held up. */
const REDACT_SLICE = 200;

/** A list redacted as redactSnapshot would, a slice per turn of the event loop. */
async function redactedInSlices(items: readonly JsonObject[] | undefined, tally: RedactionTally): Promise<JsonObject[] | undefined> {
  if (!items) return undefined;
  const result: JsonObject[] = [];
  for (let start = 0; start < items.length; start += REDACT_SLICE) {
    await new Promise((resolve) => setImmediate(resolve));
    for (const item of items.slice(start, start + REDACT_SLICE)) result.push(redactSecrets(item, false, '', tally) as JsonObject);
  }
  return result;
}

const READ_ORDER: readonly string[] = ['organization', 'blueprints', ...LISTS.map((list) => list.key), 'users'];

/**
 * Read the org. Only auth failures throw; everything else that cannot be read lands in `incomplete`.
 * `notes`: what the fetch has to say about what it read (report.notes), redactions included;
 * `secrets`: every value its redaction cut, for every output to be cleaned of (found by value).
 */
export async function fetchLiveSnapshot(client: ApiClient, onEvent: (event: FetchEvent) => void = () => {}, notes?: string[], secrets?: Set<string>): Promise<OrgSnapshot> {
  // The top-level reads first (and the organization's second read with the last ones); the per-resource
  // total is known once the blueprints, actions and pages lists are in.
  // `uncounted`: the blueprints, actions and pages lists, and the reads the organization's flag decides.
  const tracker: Tracker = { incomplete: [], answered: 0, refused: [], done: 0, total: 3 + LISTS.length, uncounted: 4, emit: onEvent };
  onEvent({ type: 'phase', phase: ['organization', 'blueprints', ...LISTS.map((list) => list.key)].join(', ') });

  // The organization and the lists other reads wait for start together, so a retry of one holds
  // none of the others (issue 25 item 4): waiting for the organization's first answer cost a round trip on every run,
  // and its backoff on a 503. The price: a URL that is not the API answers the first few lists too
  // before the run stops, each once (a 404 or a page is no transient failure: nothing is retried).
  const organizationRead = handled(attempt(tracker, 'organization', () => readOrganization(client)));
  const listRead = (path: string, key: string, payload: string) => handled(attempt(tracker, key, async () => objectsIn(await client.get(path, payload), key)));
  const blueprintsRead = listRead('/v1/blueprints', 'blueprints', 'blueprints');
  // Issue 33: a read that unlocks no other is sent once the blueprints list is in (or failed), after
  // the thousands of permission reads it unlocks: queued first, the small lists held those back
  // while the large lists kept the client's first few slots busy (a second and more on a 10x org).
  const sentLater: Array<() => void> = [];
  const later = <T>(read: () => Promise<T>): Promise<T> => handled(new Promise<T>((resolve, reject) => sentLater.push(() => read().then(resolve, reject))));
  const listReads = LISTS.map((list) => (list.unlocks ? listRead(list.path, list.key, list.payload) : later(() => listRead(list.path, list.key, list.payload))));
  // Issue 33: the large lists are redacted as they land, a slice at a time between answers, instead
  // of in one pass at the end of the run, where a 10x org spent seconds of its tail. The raw lists
  // feed the reads that depend on them (identifiers must stay as the service spells them).
  const redaction = { keys: new Set<string>(REDACTED_ON_ARRIVAL), tally: new RedactionTally() };
  const redactedLists = new Map<string, Promise<JsonObject[] | undefined>>();
  // docs/formats.md, the org snapshot: who holds which teams, for report.access; only email, teams and roles are kept.
  // Beside the lists: nothing it needs comes from them.
  tracker.total += 1;
  const usersRead = later(() => attempt(tracker, 'users', () => fetchUsers(client)));

  const permissionsOf = (kind: 'blueprint' | 'action' | 'page', collection: string, ids: string[]) => {
    tracker.total += ids.length;
    tracker.uncounted--;
    return Promise.all(
      ids.map(async (id) => {
        const path = `/v1/${collection}/${encodeURIComponent(id)}/permissions`;
        // Redacted as it lands: only the redacted record is kept.
        const permissions = await attempt(tracker, `permissions of ${kind} "${id}"`, async () =>
          redactSecrets(objectIn(await client.get(path, 'permissions'), path), isSecretName(id), id, redaction.tally) as JsonObject,
        );
        return [id, permissions] as const;
      }),
    );
  };
  const readEntitiesOf = async (blueprint: JsonObject) => {
    const id = idOf(blueprint) as string;
    return [id, await attempt(tracker, `entities of blueprint "${id}"`, () => readEntities(client, blueprint))] as const;
  };
  // Issue 25 item 4: each read that depends on a list starts as soon as that list is in, so a retry
  // of one list (or of the users, or of the organization) holds only what needs it. A list that
  // answered with the service's envelope proves the API as well as the organization would.
  const blueprintReads = handled(
    blueprintsRead.then(async (blueprints) => {
      const searched = (blueprints ?? []).filter(searchedOnItsOwn);
      tracker.total += searched.length;
      const [permissions, entities] = await Promise.all([
        permissionsOf('blueprint', 'blueprints', permissionTargets(blueprints)),
        Promise.all(searched.map((blueprint) => readEntitiesOf(blueprint))),
      ]);
      return { permissions, entities };
    }),
  );
  // Registered after the blueprints' own reads, so these queue behind them.
  void blueprintsRead.then(
    () => sentLater.forEach((send) => send()),
    () => sentLater.forEach((send) => send()),
  );
  // Only what the organization's feature flag decides waits for it: after the migration, users'
  // team identifiers from the `_user` entities, and for each blueprint that keeps teams in a
  // relation whether a data migration (POST /v1/migrations) completed for it.
  const flagReads = handled(
    Promise.all([blueprintsRead, organizationRead]).then(async ([blueprints, organizationRecord]) => {
      const flag = organizationRecord ? featureFlagState(toOrganization(organizationRecord)) : undefined;
      const users = flag === true ? (blueprints ?? []).filter((blueprint) => idOf(blueprint) === USER_BLUEPRINT) : [];
      const moved = flag === true ? relationOwnershipCandidates(blueprints ?? []) : [];
      tracker.total += users.length + moved.length;
      tracker.uncounted--;
      emitProgress(tracker);
      const [entities, migrations] = await Promise.all([
        Promise.all(users.map((blueprint) => readEntitiesOf(blueprint))),
        Promise.all(moved.map(async (id) => [id, await attempt(tracker, `data migrations of blueprint "${id}"`, () => readCompletedMigrations(client, id))] as const)),
      ]);
      return { entities, migrations, moved };
    }),
  );
  // Only the permissions that can hold a team entry (permission-plan.ts); the report notes the rest.
  const listIndex = (key: string) => LISTS.findIndex((list) => list.key === key);
  const actionReads = handled(listReads[listIndex('actions')]!.then((actions) => permissionsOf('action', 'actions', permissionTargets(actions, isAutomation))));
  const pageReads = handled(listReads[listIndex('pages')]!.then((pages) => permissionsOf('page', 'pages', permissionTargets(pages, isEntityPage))));
  // Registered after the reads that depend on each list, so those start first.
  redactedLists.set('blueprints', handled(blueprintsRead.then((items) => redactedInSlices(items, redaction.tally))));
  for (const key of ['actions', 'pages'] as const) redactedLists.set(key, handled(listReads[listIndex(key)]!.then((items) => redactedInSlices(items, redaction.tally))));

  let organization: JsonObject | undefined;
  try {
    organization = await organizationRead;
  } catch (error) {
    // Nothing new starts once the run stops (attempt() checks); what is in flight lands first,
    // so nothing runs on after it.
    await Promise.allSettled([blueprintsRead, ...listReads, usersRead, blueprintReads, flagReads, actionReads, pageReads]);
    throw error;
  }
  // Issue 25: the service's own word on the migration, kept even where the organization record is trimmed.
  const flag = organization ? featureFlagState(toOrganization(organization)) : undefined;

  const [blueprints, ...lists] = await Promise.all([blueprintsRead, ...listReads]);
  // A gateway or a token that changed org halfway would mix two orgs in one report: who answers is
  // read once more at the end. Every read the lists unlock is queued by now, so this one goes out
  // behind them, with the last of them, instead of a round trip after they all landed (issue 41).
  if (!organization) tracker.total -= 1;
  const closingRead = organization ? handled(attempt(tracker, 'organization', () => readOrganization(client))) : undefined;
  await usersRead;
  // What the organization, the lists and the users answered decides it: every other read needs one of them.
  if (tracker.answered === 0 && tracker.incomplete.length === tracker.refused.length && tracker.refused.length > 0) {
    await Promise.allSettled([blueprintReads, flagReads, actionReads, pageReads]);
    throw new ApiAccessError([...tracker.refused].sort(byReadOrder));
  }
  const listOf = (key: string) => lists[LISTS.findIndex((list) => list.key === key)];
  onEvent({
    type: 'phase',
    phase: `permissions of ${plural(permissionTargets(blueprints).length, 'blueprint')}, ${plural(permissionTargets(listOf('actions'), isAutomation).length, 'action')}, ${plural(permissionTargets(listOf('pages'), isEntityPage).length, 'page')}; entities of ${plural((blueprints ?? []).filter(searchedOnItsOwn).length, 'blueprint')}`,
  });
  const haveBlueprints = blueprints !== undefined;
  // The snapshot keeps the redacted copies of the large lists (the raw ones fed the reads that depend on them).
  const redacted = async (key: string, raw: JsonObject[] | undefined) => (redactedLists.has(key) ? await redactedLists.get(key) : raw);
  const snapshot: OrgSnapshot = {
    format: SNAPSHOT_FORMAT,
    organization: toOrganization(organization),
    blueprints: (await redacted('blueprints', blueprints)) ?? [],
  };
  if (flag !== undefined) snapshot.migrationState = { migrated: flag, source: 'feature-flag' };
  for (const [index, list] of LISTS.entries()) {
    const value = await redacted(list.key, lists[index]);
    if (value) (snapshot as Record<string, unknown>)[list.key] = value;
  }

  const users = await usersRead;
  const teams = snapshot.teams ? trimTeams(snapshot.teams) : undefined;
  if (teams) snapshot.teams = teams.teams;
  if (users) addUsers(snapshot, tracker, users, teams, notes);
  const [perBlueprint, flagged, actionPermissions, pagePermissions] = await Promise.all([blueprintReads, flagReads, actionReads, pageReads]);
  if (haveBlueprints) snapshot.blueprintPermissions = definedEntries(perBlueprint.permissions);
  if (snapshot.actions) snapshot.actionPermissions = definedEntries(actionPermissions);
  if (snapshot.pages) snapshot.pagePermissions = definedEntries(pagePermissions);
  if (organization) {
    const atEnd = await closingRead;
    const [first, last] = [toOrganization(organization), atEnd && toOrganization(atEnd)];
    if (last && last.id !== first.id) {
      tracker.incomplete.push({ resource: 'organization', reason: `the service answered for organization "${first.id}" at the start of the read and "${last.id}" at its end: the data may mix two orgs; run again` });
    }
  }
  if (haveBlueprints) snapshot.entities = { ...definedEntries(perBlueprint.entities), ...definedEntries(flagged.entities) };
  if (flagged.moved.length > 0) snapshot.migrations = definedEntries(flagged.migrations);
  snapshot.liveService = liveServiceRecord(client.stats(), { featureFlags: flag !== undefined, migrationsRead: flagged.moved.length });
  // Sorted: requests finish in any order, the snapshot and report must not.
  if (tracker.incomplete.length > 0) snapshot.incomplete = [...tracker.incomplete].sort((a, b) => compareText(a.resource, b.resource));
  // Webhook signing secrets, Authorization headers and the like never leave the fetch. What was
  // redacted on arrival is not walked again, and counts in the same note.
  return redactSnapshot(snapshot, notes, redaction, secrets);
}

/**
 * The users as `GET /v1/users` gave them; where it answered without their teams, the teams' members
 * (`GET /v1/teams`) stand in, with a note. With neither, who is in which team is not known: the
 * users are a gap (exit 3), not users without teams, which would read as "no access changes".
 */
function addUsers(snapshot: OrgSnapshot, tracker: Tracker, read: UsersRead, teams: TeamsRead | undefined, notes: string[] | undefined): void {
  if (!read.withoutTeams) {
    snapshot.users = read.users;
    return;
  }
  if (teams?.members) {
    snapshot.users = withTeamsFromMembers(read.users, teams.members);
    notes?.push("users: GET /v1/users answered without the users' teams: taken from the members of each team in GET /v1/teams");
    return;
  }
  tracker.incomplete.push({ resource: 'users', reason: "GET /v1/users answered without the users' teams, and GET /v1/teams without the teams' members: who is in which team is not known" });
}

/**
 * `/v1/organization` is the one read every org answers. When it cannot be read at all (not found,
 * not the API's JSON, failing after every retry), the URL or the service is wrong, not one
 * resource: that stops the run (exit 2). Only a 403, which proves an API that knows us, leaves a gap.
 */
async function readOrganization(client: ApiClient): Promise<JsonObject> {
  try {
    return objectIn(await client.get('/v1/organization', 'organization'), 'GET /v1/organization');
  } catch (error) {
    if (isFatal(error) || !(error instanceof ApiError) || error.status === 403) throw error;
    const reason = isNotTheApi(error) ? `${error.message}: not the catalog API` : error.message;
    throw new ApiUnreachableError(reason, error.status, { cause: error });
  }
}

/**
 * A read started ahead of the await that collects it: a fatal failure (credentials) is still thrown
 * there, but may not surface as an unhandled rejection while an earlier await is pending.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function definedEntries<T>(entries: ReadonlyArray<readonly [string, T | undefined]>): Record<string, T> {
  const result = keyedRecord<T>();
  for (const [id, value] of entries) if (value !== undefined) result[id] = value;
  return result;
}

/** organization is required by org-snapshot/1; when it cannot be read the run goes on, marked incomplete. */
function toOrganization(record: JsonObject | undefined): Organization {
  const id = typeof record?.id === 'string' ? record.id : '';
  const name = typeof record?.name === 'string' ? record.name : '(organization not readable)';
  return { ...record, id, name };
}
