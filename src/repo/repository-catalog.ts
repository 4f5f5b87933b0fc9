import { buildCatalog, type CatalogOptions } from '../catalog/build-catalog.js';
import type { TeamsMap } from '../catalog/teams.js';
import type { Catalog } from '../catalog/catalog.js';
import type { JsonObject } from '../model/json.js';
import { builtInKey } from '../model/built-in-key.js';
import { slugOf } from '../catalog/teams.js';
import { TEAM_BLUEPRINT, USER_BLUEPRINT, emptySnapshot, type EntityRecord, type OrgSnapshot, type TeamRecord } from '../model/snapshot.js';
import { plural } from '../plural.js';
import { parsedJson } from '../parse-json.js';
import type { FileResource, ResourceKind } from './file-resources.js';
import { unique, uniqueBy } from '../model/arrays.js';
import { field, stringField, toSourceMapped, type LocatedJson } from './located-json.js';
import { addTeamValues, stateFact, teamStrings, type RepositoryFacts, type StateFact } from './repository-facts.js';
import { unknownStateWords } from './context.js';
import type { Span } from './tree.js';

/**
 * The migration state a repository's files describe. Strong facts (a system blueprint `_team`, a
 * `port_blueprint` that still manages `_team`) outweigh weak ones; weak facts that disagree read as
 * not migrated, as an org half-way is judged by what the migration still has to do. `known` is
 * false when no file says anything: then what depends on the state is a review (src/repo/judge.ts).
 */
export interface InferredState {
  migrated: boolean;
  known: boolean;
  /** The facts that decided, strongest first. */
  decisive: readonly StateFact[];
  /** Facts that say the other state, for the note. */
  against: readonly StateFact[];
}

export function inferMigrationState(facts: readonly StateFact[]): InferredState {
  const strong = facts.filter((fact) => fact.strong);
  const pool = strong.length > 0 ? strong : facts;
  if (pool.length === 0) return { migrated: false, known: false, decisive: [], against: [] };
  const migrated = pool.every((fact) => fact.migrated);
  const decisive = pool.filter((fact) => fact.migrated === migrated);
  const against = facts.filter((fact) => fact.migrated !== migrated);
  return { migrated, known: true, decisive, against };
}

/**
 * What the blueprints the files write say of the state: a `_team` or `_user` blueprint in the
 * service's shape (a system blueprint, an export of the org) exists only once the org has migrated;
 * `ownership` is the new setting and `teamInheritance` the old one, either of which a file may keep
 * while the org is on the other side.
 */
function blueprintStateFacts(resources: readonly FileResource[]): StateFact[] {
  const facts: StateFact[] = [];
  for (const resource of resources) {
    if (resource.kind !== 'blueprint') continue;
    const identifier = stringField(resource.value, 'identifier');
    const at = (origin: LocatedJson | undefined) => originSpan(origin ?? resource.value);
    if (identifier === TEAM_BLUEPRINT || identifier === USER_BLUEPRINT) {
      const how = resource.system ? 'declares the system blueprint' : 'holds the blueprint';
      facts.push(stateFact(at(field(resource.value, 'identifier')), `${how} ${identifier}, which exists once the org has migrated`, true, true));
      continue;
    }
    const ownership = field(resource.value, 'ownership');
    if (ownership?.kind === 'object') facts.push(stateFact(at(ownership), `blueprint ${identifier ?? resource.label ?? '?'} declares ownership`, true, false));
    const inheritance = field(resource.value, 'teamInheritance');
    // Beside ownership, inheritance is a leftover the service ignores: it says nothing of the state.
    if (inheritance?.kind === 'object' && inheritance.fields.size > 0 && ownership?.kind !== 'object') facts.push(stateFact(at(inheritance), `blueprint ${identifier ?? resource.label ?? '?'} keeps team inheritance`, false, false));
  }
  return facts;
}

const originSpan = (value: LocatedJson) => value.origin.entry?.span ?? value.origin.node.span;

/** The resource lists of the snapshot, by the kind of file resource that fills them; permissions are maps by the resource they grant on. */
const LISTS = { action: 'actions', page: 'pages', integration: 'integrations', webhook: 'webhooks', scorecard: 'scorecards' } as const;
const PERMISSIONS = { 'blueprint-permissions': 'blueprintPermissions', 'action-permissions': 'actionPermissions', 'page-permissions': 'pagePermissions' } as const;

/** Where a snapshot keeps a resource of this kind (not a blueprint): the list it is pushed to, or the permissions map it is keyed in. */
export function snapshotSlot(snapshot: OrgSnapshot, kind: ResourceKind): { map: Record<string, JsonObject | null> } | { list: JsonObject[] } {
  if (kind in PERMISSIONS) return { map: snapshot[PERMISSIONS[kind as keyof typeof PERMISSIONS]] as Record<string, JsonObject | null> };
  return { list: snapshot[LISTS[kind as keyof typeof LISTS]] as JsonObject[] };
}

/**
 * The org a repository's files describe, in the snapshot shape (docs/formats.md, the org snapshot): the same
 * `buildCatalog` then derives every index the judge reads, so files are judged with the teams,
 * blueprints and migration state they themselves write (CONTRIBUTING.md, "One catalog").
 */
function repositorySnapshot(name: string, facts: RepositoryFacts, state: InferredState, teamsMap: TeamsMap = {}): OrgSnapshot {
  const snapshot = emptySnapshot({ id: `repository:${name}`, name }, { teams: true });
  const blueprintIds = new Set<string>();
  for (const resource of facts.resources) {
    const json = toSourceMapped(resource.value).json;
    if (resource.kind === 'blueprint') {
      const id = typeof json.identifier === 'string' ? json.identifier : undefined;
      // The first copy of a blueprint stands for it; a second (another environment's) adds nothing new to judge by.
      if (id === undefined || blueprintIds.has(id)) continue;
      blueprintIds.add(id);
      snapshot.blueprints.push(json);
    } else {
      const slot = snapshotSlot(snapshot, resource.kind);
      if ('list' in slot) slot.list.push(json);
      else slot.map[resource.identifier ?? resource.label ?? `#${Object.keys(slot.map).length}`] ??= json;
    }
  }
  const names = new Set<string>();
  for (const { record } of facts.teams) {
    if (names.has(record.name)) continue;
    names.add(record.name);
    (snapshot.teams as TeamRecord[]).push(record);
  }
  const entities = snapshot.entities as Record<string, EntityRecord[]>;
  for (const [blueprint, records] of facts.entities) entities[blueprint] = uniqueBy(records, (record) => record.identifier);
  const values = [...facts.teamValues];
  for (const resource of facts.resources) resourceTeamValues(resource.value, (value) => values.push(value));
  const mapped = Object.entries(teamsMap).flat();
  (snapshot.teams as TeamRecord[]).push(...valueTeams(values, snapshot.teams as TeamRecord[], entities[TEAM_BLUEPRINT] ?? [], mapped, state));
  if (state.known) {
    snapshot.migrationState = {
      migrated: state.migrated,
      source: 'repository',
      evidence: state.decisive.map(({ file, line, fact }) => ({ file, line, fact })),
    };
  }
  return snapshot;
}

/** Team values written in the resources, with where: permission `teams` lists, `$team` rule values, a mapping's literal `team`. */
function resourceTeamValues(node: LocatedJson, found: (value: string, span: Span) => void): void {
  const strings = (value: LocatedJson | undefined): [string, Span][] => {
    if (value?.kind === 'scalar') return typeof value.value === 'string' ? [[value.value, originSpan(value)]] : [];
    return value?.kind === 'array' ? value.items.flatMap(strings) : [];
  };
  if (node.kind === 'array') {
    for (const item of node.items) resourceTeamValues(item, found);
    return;
  }
  if (node.kind !== 'object') return;
  const property = node.fields.get('property');
  // A built-in value ("My Teams") is the viewer's teams, no team of its own.
  if (property?.kind === 'scalar' && property.value === '$team') for (const [value, span] of strings(node.fields.get('value'))) if (builtInKey(value) === undefined) found(value, span);
  for (const [key, value] of node.fields) {
    if (key === 'teams' && value.kind === 'array') for (const [item, span] of strings(value)) found(item, span);
    // A mapping's `team` is jq: only a literal (`'"platform"'`, `'["a", "b"]'`) names teams.
    // (`parsedJson` gives nothing for any other expression.)
    else if (key === 'team' && value.kind === 'scalar' && typeof value.value === 'string') for (const item of teamStrings(parsedJson(value.value))) found(item, originSpan(value));
    else resourceTeamValues(value, found);
  }
}

/** What a team value can be written as: the service's identifier characters, no whitespace, no template. */
const IDENTIFIER_FORM = /^[\p{L}0-9@_.+:\\/=-]+$/u;

/**
 * The teams the files' team values stand for, where the files define no team of that name. Before
 * the migration every team value is a title; after it, an identifier. So: a value with whitespace is
 * a title (no identifier holds it), which the catalog's partial team list already reads as one
 * (with a guessed identifier for jq, so it is left out here); any other is an identifier the org
 * holds when it has migrated, and undecided when the files do not tell (issue 39: even one that is
 * its own slug, `platform`, `sre_oncall`); before the migration one that is its own slug is a team
 * whose title and identifier are that value, any other (`Payments`, `team-a`) a title.
 */
function valueTeams(values: readonly string[], teams: readonly TeamRecord[], teamEntities: readonly EntityRecord[], mapped: readonly string[], state: InferredState): TeamRecord[] {
  const known = new Set<string>([...mapped, ...teams.flatMap((team) => [team.name, ...(typeof team.identifier === 'string' ? [team.identifier] : [])]), ...teamEntities.flatMap((entity) => [entity.identifier, ...(typeof entity.title === 'string' ? [entity.title] : [])])]);
  const found: TeamRecord[] = [];
  for (const value of values) {
    if (known.has(value) || value.trim() === '' || TEMPLATE.test(value)) continue;
    known.add(value);
    if (/\s/.test(value)) continue; // a title, as any value with whitespace is without the org's teams (catalog/teams.ts)
    if (!IDENTIFIER_FORM.test(value)) continue;
    // Issue 39: a value that looks like its own slug is no identifier by that alone (nothing public
    // says how identifiers are derived): only where the files tell the org's state is it read as one.
    else if (state.migrated || (state.known && slugOf(value) === value)) found.push({ name: value, identifier: value });
    else if (state.known) found.push({ name: value });
  }
  return found;
}

/** A value the service or a tool fills in (`{{ … }}`, `${ … }`): no team of its own. */
const TEMPLATE = /\{\{|\$\{/;

/**
 * The catalog of one repository, built exactly as an org's is; and the titles its files write that
 * no team of the catalog holds (values with whitespace), which an org predicted from it names.
 */
export function repositoryCatalog(name: string, facts: RepositoryFacts, options: CatalogOptions): { catalog: Catalog; state: InferredState; titles: string[] } {
  // Titles the resources hold say the files were written for an org before the migration, as titles elsewhere do (addTeamValues).
  const withTitles: RepositoryFacts = { ...facts, state: [...facts.state], teamValues: [] };
  for (const resource of facts.resources) resourceTeamValues(resource.value, (value, span) => addTeamValues(withTitles, [value], span));
  // Facts of shape first, then the titles: the note names them in this order.
  const all = [...withTitles.state, ...blueprintStateFacts(facts.resources)];
  const state = inferMigrationState([...all.filter((fact) => !fact.title), ...all.filter((fact) => fact.title)]);
  const catalog = buildCatalog(repositorySnapshot(name, facts, state, options.teamsMap), { ...options, partialTeams: true });
  const titles = unique(facts.teamValues.filter((value) => /\s/.test(value.trim()) && !TEMPLATE.test(value) && !catalog.teams.byTitle.has(value)));
  return { catalog, state, titles };
}

const MAX_SHOWN = 3;

const listed = (facts: readonly StateFact[]): string => {
  const shown = facts.slice(0, MAX_SHOWN).map((fact) => `${fact.fact} (${fact.file}:${fact.line})`);
  const rest = facts.length - shown.length;
  return `${shown.join('; ')}${rest > 0 ? `; and ${plural(rest, 'more fact', 'more facts')}` : ''}`;
};

/** What the files say of the org's migration state, in words. */
function stateWords(state: InferredState, unread: readonly string[]): string {
  if (!state.known) return unknownStateWords({ unread }, ' (no system blueprint _team or _user, no ownership, no team inheritance)');
  const said = `${state.migrated ? 'migrated' : 'not migrated'}: ${listed(state.decisive)}`;
  return state.against.length > 0 ? `${said}; although ${listed(state.against)}` : said;
}

/**
 * The report note that names a repository's inferred migration state and why. Without an org the
 * files decide how they are judged; with one, the org does, and the note says both.
 */
export function repositoryStateNote(name: string, state: InferredState, org?: { migrated: boolean; name: string }, unread: readonly string[] = []): string {
  const shown = name === '' ? '.' : name;
  if (org) {
    const agree = state.known && state.migrated === org.migrated;
    return `migration state of repository ${shown}: its files read as ${stateWords(state, unread)}; the org ${org.name} decides: it has${org.migrated ? '' : ' not'} migrated${state.known && !agree ? ', so the files are judged against the org, not as they read' : ''}`;
  }
  if (!state.known) return `migration state of repository ${shown}: ${stateWords(state, unread)}; unknown, so what a file needs where the state decides is a review (give --snapshot or a live org to decide; an org created on or after 14 January 2025 was born with team identifiers and has no migration to run)`;
  return `migration state of repository ${shown}: judged as ${stateWords(state, unread)}`;
}
