/**
 * A search rule that compares team values (a policy query, a widget filter, a dataset, a scorecard
 * condition, a mapping's team search), judged as the service matches it: the property side (the
 * entities' `$team`, a `_team` entity's own identifier or title, or a value of the user) and the
 * value side (literals, a built-in value, jq or a `{{ }}` template run with that world's user and
 * entity) are each read in their own world, then matched with the rule's operator. Which entities
 * match, before and after, for each user, decides the class; the lexer and the literals decide
 * nothing.
 */
import type { TeamDirectory } from '../catalog/teams.js';
import type { EvaluateResult, EvaluationFailure, JqEngine } from '../jq/engine.js';
import type { SampleKind } from '../model/sites.js';
import { own, type JsonObject, type JsonValue } from '../model/json.js';
import type { EntityRecord } from '../model/snapshot.js';
import { uniqueBy } from '../model/arrays.js';
import type { BuiltInValue } from './built-in-values.js';
import { fillDerived, type ContextSpec, type ReferenceClass } from './classify.js';
import { constantStrings } from './constant-strings.js';
import { assignedIdentifiers, contextFor, identifiersItCouldBe, literalTexts, pendingIdentifier, teamCases, teamsFor, unsureTeam, type JudgeTeam, type TeamCase } from './worlds.js';
import type { World } from './user-model.js';

/** Operators the service documents for search rules, as they treat a list of team values. */
const MATCHERS: Readonly<Record<string, (teams: readonly string[], values: readonly string[]) => boolean>> = {
  '=': (teams, values) => values.length > 0 && values.every((v) => teams.includes(v)),
  '!=': (teams, values) => !values.some((v) => teams.includes(v)),
  in: (teams, values) => teams.some((t) => values.includes(t)),
  notIn: (teams, values) => !teams.some((t) => values.includes(t)),
  containsAny: (teams, values) => teams.some((t) => values.includes(t)),
  contains: (teams, values) => values.some((v) => teams.some((t) => t.includes(v))),
  doesNotContains: (teams, values) => !values.some((v) => teams.some((t) => t.includes(v))),
  beginsWith: (teams, values) => values.some((v) => teams.some((t) => t.startsWith(v))),
  doesNotBeginsWith: (teams, values) => !values.some((v) => teams.some((t) => t.startsWith(v))),
  endsWith: (teams, values) => values.some((v) => teams.some((t) => t.endsWith(v))),
  doesNotEndsWith: (teams, values) => !values.some((v) => teams.some((t) => t.endsWith(v))),
  isEmpty: (teams) => teams.length === 0,
  isNotEmpty: (teams) => teams.length > 0,
};

/** Stands for a value no literal is about: what the rule does with a literal alone. */
const NO_TEAM = '\u0000no team';

/**
 * Whether a team value `spelling` meets `literal` under the rule's operator, as the service
 * matches it: an entity holding that one team is matched otherwise than one holding none of the
 * org's teams (`beginsWith "plat"` meets `platform`; `!=` a value meets it by leaving it out).
 * An operator this tool does not know meets everything: it claims nothing.
 */
export function operatorMeets(operator: string, spelling: string, literal: string): boolean {
  const matcher = own(MATCHERS, operator);
  return matcher === undefined || matcher([spelling], [literal]) !== matcher([NO_TEAM], [literal]);
}

/** One part of what a side holds: literals as written, a value the service fills, or jq it runs. */
export type ValuePart =
  | { kind: 'literals'; values: readonly string[] }
  | { kind: 'built-in'; builtIn: BuiltInValue; key: string }
  /** `derived`: calculations its entity holds as they compute there; `mirrors`: its mirrors of `_team` identifiers and titles (`readBack`: identifiers as titles before). */
  | { kind: 'jq'; expression: string; sample: SampleKind; derived?: ContextSpec['derived']; mirrors?: { identifiers: readonly string[]; titles: readonly string[] }; readBack?: true };

/** A jq part's runs are one per sample, expression and reading of the mirrors. */
const keyOf = (part: Extract<ValuePart, { kind: 'jq' }>) => `${part.sample}\u0000${part.expression}${part.readBack ? '\u0000read back' : ''}`;

/** What a rule compares: the entities' `$team`, a `_team` entity's own field, or values. */
export type RuleSide = { kind: 'entity-team' } | { kind: 'team-entity'; field: '$identifier' | '$title' } | { kind: 'values'; parts: readonly ValuePart[] };

export interface RuleSpec {
  directory: TeamDirectory;
  operator: string;
  property: RuleSide;
  /**
   * The value as run before the migration and as run after it: the same parts, unless a rewrite
   * (the original before, the rewrite after) or a read-back (identifiers read as titles before,
   * as written after) is being proven.
   */
  value: { before: readonly ValuePart[]; after: readonly ValuePart[] };
  /** The org's entities the rule filters (those of its blueprint), when the property is `$team`. */
  entities: readonly EntityRecord[];
  jq?: JqEngine;
  /** For jq run as a policy: the query ids its `.results` hold. */
  queryIds?: readonly string[];
}

export interface RuleDifference {
  context: string;
  before: string;
  after: string;
  standIn?: true;
  /** Kept with another identifier a team known by title only could be given: which (the `identifier-unknown` row). */
  identifierUnknown?: string;
}

export type RuleJudgement =
  | {
      class: ReferenceClass;
      /** How many of the org's sampled entities match, before and after (docs/formats.md, the report `impact.rows`); only when the value depends on no user. */
      rows?: { before: number; after: number; read: number; flipped: number };
      difference?: RuleDifference;
      /** How many (user, entity) pairs were matched. */
      contexts: number;
    }
  | { class: 'failed'; failure: EvaluationFailure; error: string };

/** Ours: entities of the org read per rule; enough to count rows, bounded for big orgs. */
const MAX_REAL_ENTITIES = 500;

/** Stands for a value that is no string and no scalar (an object, a nested list): it equals no team. */
const NOT_A_STRING = '\u0000not a string';

/**
 * A boolean, number or null as the rule compares it (a rule's value `true` against a calculation
 * that gives `true`): a string no team can spell, equal to the same scalar from either side.
 */
const SCALAR = '\u0000json:';
export const scalarLiteral = (value: boolean | number | null): string => `${SCALAR}${JSON.stringify(value)}`;
export const isScalarLiteral = (value: string): boolean => value.startsWith(SCALAR);
/** A literal as a reason shows it: a scalar as JSON, a string quoted. */
export const showLiteral = (value: string): string => (isScalarLiteral(value) ? value.slice(SCALAR.length) : JSON.stringify(value));
/** Stands for a jq value that errors: the rule then filters on nothing a team holds. */
const ERRORED = '\u0000an error';

/** One entity the rule is matched against, with what its property holds in each world. */
interface RuleEntity {
  label: string;
  before: readonly string[];
  after: readonly string[];
  /** One of the org's own entities (counted in `rows`), not a synthetic edge case. */
  real: boolean;
  standIn?: true;
  /** The org's own record, for rules on its other fields; a synthetic entity holds its teams only. */
  record?: EntityRecord;
}

/**
 * The entities: the org's own (the blueprint's, with their teams read back to titles where the
 * org already holds identifiers), then one per team, every team at once, and none.
 */
function teamEntities(directory: TeamDirectory, entities: readonly EntityRecord[], teams: readonly JudgeTeam[]): RuleEntity[] {
  const toId = new Map<string, string>();
  const toTitle = new Map<string, string>();
  for (const team of directory.byTitle.values()) {
    if (team.identifier === undefined) continue;
    toId.set(team.title, team.identifier);
    toTitle.set(team.identifier, team.title);
  }
  // A value whose identifier only a stand-in gives (a literal tried as a team the org does not name).
  const unsure = new Set<string>();
  for (const team of teams) {
    toId.set(team.title, team.identifier);
    toTitle.set(team.identifier, team.title);
    if (unsureTeam(team, directory)) unsure.add(team.title);
  }
  for (const team of directory.byTitle.values()) if (team.identifier === undefined) toId.set(team.title, pendingIdentifier(team.title));
  const out: RuleEntity[] = [];
  for (const entity of entities.slice(0, MAX_REAL_ENTITIES)) {
    const values = Array.isArray(entity.team) ? entity.team.filter((v): v is string => typeof v === 'string') : typeof entity.team === 'string' ? [entity.team] : [];
    const before = values.map((v) => (directory.byTitle.has(v) ? v : (toTitle.get(v) ?? v)));
    const standIn = before.some((v) => unsure.has(v));
    out.push({ label: `entity "${entity.identifier}"`, before, after: before.map((v) => toId.get(v) ?? v), real: true, record: entity, ...(standIn && { standIn: true as const }) });
  }
  for (const team of teams) out.push({ label: `an entity of team "${team.title}"`, before: [team.title], after: [team.identifier], real: false, ...(unsureTeam(team, directory) && { standIn: true as const }) });
  // Every team on one entity is a combination nobody may hold: tried only where the org's data does not say (issue 29).
  if (teams.length > 1 && directory.combinations === undefined) {
    const standIn = teams.some((t) => unsureTeam(t, directory));
    out.push({ label: 'an entity of every team', before: teams.map((t) => t.title), after: teams.map((t) => t.identifier), real: false, ...(standIn && { standIn: true as const }) });
  }
  out.push({ label: 'an entity with no team', before: [], after: [], real: false });
  return out;
}

/** The org's teams as `_team` entities: their identifier and title are the same in both worlds. */
function teamRecords(directory: TeamDirectory, teams: readonly JudgeTeam[], field: '$identifier' | '$title'): RuleEntity[] {
  const all = new Map<string, JudgeTeam>();
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined) all.set(team.title, { title: team.title, identifier: team.identifier });
  for (const team of teams) if (!all.has(team.title)) all.set(team.title, team);
  return [...all.values()].slice(0, MAX_REAL_ENTITIES).map((team) => {
    const value = [field === '$identifier' ? team.identifier : team.title];
    return { label: `the _team entity "${team.identifier}" (titled "${team.title}")`, before: value, after: value, real: false, ...(unsureTeam(team, directory) && { standIn: true as const }) };
  });
}

const NO_USER: TeamCase = { label: '', teams: () => [] };

const partsOf = (side: RuleSide): readonly ValuePart[] => (side.kind === 'values' ? side.parts : []);

/** What every judgement of one rule shares: the users it depends on, their values, the entities. */
interface Prepared {
  match: (teams: readonly string[], values: readonly string[]) => boolean;
  users: TeamCase[];
  readsUser: boolean;
  valuesOf: (parts: readonly ValuePart[], user: number, world: World) => string[];
  entities: RuleEntity[];
  literals: string[];
  /** The teams the rule is run with. */
  teams: JudgeTeam[];
}

function prepare(spec: RuleSpec): Prepared | { class: 'failed'; failure: EvaluationFailure; error: string } | undefined {
  const match = own(MATCHERS, spec.operator);
  if (!match) return undefined;
  const allParts = [...partsOf(spec.property), ...spec.value.before, ...spec.value.after];
  const literals = [...new Set(allParts.flatMap((part) => (part.kind === 'literals' ? part.values : [])))];
  const text = [literals.join(' '), ...allParts.flatMap((part) => (part.kind === 'jq' ? [part.expression] : []))].join(' ');
  // A jq value's strings, those it computes from its literals alone too (`"QA" | ascii_downcase`), set the classes of teams it is run with.
  const jqStrings = (expression: string) => (spec.jq ? constantStrings(spec.jq, expression) : literalTexts(expression));
  const teams = teamsFor(spec.directory, text, literals, [...new Set([...literals, ...allParts.flatMap((part) => (part.kind === 'jq' ? jqStrings(part.expression) : []))])]);
  const jqParts = allParts.filter((part): part is Extract<ValuePart, { kind: 'jq' }> => part.kind === 'jq');
  const readsUser = allParts.some((part) => part.kind !== 'literals');
  const users = readsUser ? teamCases(spec.directory, teams, [], jqParts[0]?.sample ?? 'user-input').filter((user) => !user.sided) : [NO_USER];

  // Every jq part on every user in both worlds, asked for at once.
  const runs = new Map<string, EvaluateResult[]>();
  if (jqParts.length > 0) {
    if (!spec.jq) return { class: 'failed', failure: 'crash', error: 'jq is not loaded' };
    const jq = spec.jq;
    const work = uniqueBy(jqParts, (part) => keyOf(part)).map((part) => ({
      part,
      inputs: fillDerived((['before', 'after'] as const).flatMap((world) => users.map((user) => contextFor(part.sample, user, world, spec.queryIds ?? [], [], [], [], part.readBack, [], part.mirrors?.identifiers, part.mirrors?.titles))), part.derived),
    }));
    jq.prefetch?.({ evaluate: work.map(({ part, inputs }) => ({ expression: part.expression, inputs })) });
    for (const { part, inputs } of work) {
      const results = inputs.map((input) => jq.evaluate(input, part.expression));
      const failed = results.find((r): r is Extract<EvaluateResult, { ok: false }> => !r.ok && r.failure !== undefined);
      if (failed) return { class: 'failed', failure: failed.failure!, error: failed.error };
      runs.set(keyOf(part), results);
    }
  }
  const valuesOf = (parts: readonly ValuePart[], user: number, world: World): string[] =>
    parts.flatMap((part) => {
      if (part.kind === 'literals') return [...part.values];
      if (part.kind === 'built-in') return part.builtIn.values({ teams: users[user]!.teams(0), email: 'someone@example.com' }, world);
      const result = runs.get(keyOf(part))![(world === 'before' ? 0 : users.length) + user]!;
      return asStrings(result);
    });
  const entities =
    spec.property.kind === 'entity-team'
      ? teamEntities(spec.directory, spec.entities, teams)
      : spec.property.kind === 'team-entity'
        ? teamRecords(spec.directory, teams, spec.property.field)
        : [{ label: '', before: [], after: [], real: false }];
  return { match, users, readsUser, valuesOf, entities, literals, teams };
}

/**
 * Match the rule before and after on every entity, for every user the values depend on.
 * Undefined when the operator is one the service does not document for such rules.
 */
export function judgeRule(spec: RuleSpec): RuleJudgement | undefined {
  const prepared = prepare(spec);
  if (!prepared || 'class' in prepared) return prepared;
  const { match, users, readsUser, valuesOf, entities } = prepared;
  const rows = { before: 0, after: 0, read: 0, flipped: 0 };
  let difference: RuleDifference | undefined;
  let contexts = 0;
  users.forEach((user, u) => {
    const standInUser = user.teams(0).some((t) => unsureTeam(t, spec.directory));
    const value = { before: valuesOf(spec.value.before, u, 'before'), after: valuesOf(spec.value.after, u, 'after') };
    const property = spec.property.kind === 'values' ? { before: valuesOf(spec.property.parts, u, 'before'), after: valuesOf(spec.property.parts, u, 'after') } : undefined;
    for (const entity of entities) {
      contexts++;
      const held = { before: property?.before ?? entity.before, after: property?.after ?? entity.after };
      const before = match(held.before, value.before);
      const after = match(held.after, value.after);
      if (entity.real && !readsUser) {
        rows.read++;
        if (before) rows.before++;
        if (after) rows.after++;
        if (before !== after) rows.flipped++;
      }
      if (before === after) continue;
      const standIn = standInUser || entity.standIn === true;
      // A difference on a real team outweighs one only a stand-in shows.
      if (difference && !(difference.standIn && !standIn)) continue;
      const where = [user === NO_USER ? '' : `a user with ${userLabel(user)}`, entity.label].filter(Boolean).join(' and ');
      difference = {
        context: `${where} (${compared(held, value)})`,
        before: before ? 'a match' : 'no match',
        after: after ? 'a match' : 'no match',
        ...(standIn && { standIn: true as const }),
      };
    }
  });
  if (difference && !readsUser) {
    const kept = keptByOtherIdentifiers(spec, prepared);
    if (kept) difference = { ...difference, standIn: true, identifierUnknown: `the same with ${kept}` };
  }
  const judgement: RuleJudgement = difference ? { class: 'changed', difference, contexts } : { class: 'same', contexts };
  if (!readsUser && rows.read > 0) judgement.rows = rows;
  return judgement;
}

/**
 * Issue 39, as for expressions: where teams known by title only show the change with their pending
 * stand-ins, the identifiers the migration could give them (`identifiersItCouldBe`: the title itself,
 * the rule's literals) are tried, one team at a time; when some assignment matches every entity alike
 * in both worlds, the change is the identifier's to decide. Which identifiers were tried, or undefined.
 */
function keptByOtherIdentifiers(spec: RuleSpec, prepared: Prepared): string | undefined {
  // Teams known by title only, and literals tried as teams the org does not name: no source gives their identifiers.
  const literalTeams = prepared.teams.filter((team) => unsureTeam(team, spec.directory) && team.standIn === 'literal').map((team) => team.title);
  const value = { before: prepared.valuesOf(spec.value.before, 0, 'before'), after: prepared.valuesOf(spec.value.after, 0, 'after') };
  return keptByAssigning(spec.directory, prepared.entities, prepared.literals, literalTeams, (entity, after) => prepared.match(entity.before, value.before) === prepared.match(after, value.after));
}

/**
 * The identifiers, one team known by title only (or `also` tried as such) at a time, that make every
 * entity `alike` in both worlds, as words (`identifier "payments" for "Payments"`); undefined when
 * no such assignment is found or none is needed.
 */
function keptByAssigning(directory: TeamDirectory, entities: readonly RuleEntity[], literals: readonly string[], also: readonly string[], alike: (entity: RuleEntity, after: readonly string[]) => boolean): string | undefined {
  const pending = [...new Set([...[...directory.byTitle.values()].filter((team) => team.identifier === undefined).map((team) => team.title), ...also])];
  if (pending.length === 0) return undefined;
  const assigned = new Map<string, string>();
  const holds = (entity: RuleEntity) => alike(entity, entity.after.map((value, i) => assigned.get(entity.before[i]!) ?? value));
  for (const title of pending) {
    const holding = entities.filter((entity) => entity.before.includes(title));
    if (holding.every(holds)) continue;
    const candidate = identifiersItCouldBe(directory, title, literals).find((id) => {
      assigned.set(title, id);
      if (holding.every(holds)) return true;
      assigned.delete(title);
      return false;
    });
    if (candidate === undefined) return undefined;
  }
  return assigned.size === 0 || !entities.every(holds) ? undefined : assignedIdentifiers(assigned);
}

/**
 * A search rule tree as it is judged whole: groups with their combinators, `$team` rules with
 * literal values, and rules on an entity's own fields (`$identifier`, `$title`, `$blueprint`, a
 * property that holds no team value), which the migration leaves as they are.
 */
export type RuleTree =
  | { kind: 'group'; combinator: unknown; rules: readonly RuleTree[] }
  | { kind: 'team'; operator: string; values: readonly string[] }
  | { kind: 'field'; property: string; operator: string; values: readonly string[] };

/**
 * Issue 39: a rule tree matched as a whole, nested groups and rules on other fields included, on
 * the same entities in both worlds (the org's own, with their records; one per team, holding only
 * that team): `same` when every entity is matched alike before and after (an `or` of a title and
 * its identifier, at any depth), `changed` otherwise; `matches-nobody` when only `$team` rules are
 * in it and it matches nothing in either world; undefined for an operator or a combinator the
 * service does not document. Changed only with the pending stand-ins of teams known by title only,
 * and alike with identifiers the migration could give them (an `or` of a title and the identifier
 * the team may get, held-out m14), it is the first entity that changes, in the rule judge's words,
 * with the identifiers that keep it.
 */
export function judgeRuleTree(spec: { directory: TeamDirectory; tree: RuleTree; entities: readonly EntityRecord[]; blueprint?: string }): 'same' | 'changed' | 'matches-nobody' | RuleDifference | undefined {
  if (!documented(spec.tree)) return undefined;
  const leaves: Exclude<RuleTree, { kind: 'group' }>[] = [];
  const collect = (node: RuleTree): void => void (node.kind === 'group' ? node.rules.forEach(collect) : leaves.push(node));
  collect(spec.tree);
  const literals = [...new Set(leaves.flatMap((leaf) => (leaf.kind === 'team' ? leaf.values : [])))];
  const entities = teamEntities(spec.directory, spec.entities, teamsFor(spec.directory, literals.join(' '), literals, literals));
  const matches = (entity: RuleEntity, held: readonly string[]) => treeMatches(spec.tree, entity, held, spec.blueprint);
  const changed = entities.find((entity) => matches(entity, entity.before) !== matches(entity, entity.after));
  if (changed !== undefined) {
    const kept = keptByAssigning(spec.directory, entities, literals, [], (entity, after) => matches(entity, entity.before) === matches(entity, after));
    if (kept === undefined) return 'changed';
    const word = (matched: boolean) => (matched ? 'a match' : 'no match');
    const held = `${JSON.stringify(changed.before)} before and ${JSON.stringify(changed.after)} after`;
    return { context: `${changed.label} (${held})`, before: word(matches(changed, changed.before)), after: word(matches(changed, changed.after)), standIn: true, identifierUnknown: `the same with ${kept}` };
  }
  if (entities.some((entity) => matches(entity, entity.before))) return 'same';
  // The same in both worlds because it matches nothing in either: a dead condition, not one that keeps working.
  // With rules on other fields, only the entities sampled here say so: no claim.
  return leaves.every((leaf) => leaf.kind === 'team') ? 'matches-nobody' : undefined;
}

/**
 * The org's own entities a rule tree finds in each world, as a query hands them on (a policy's
 * `.results.<query>.entities`): each record with its `team` as that world holds it. Undefined for
 * an operator or a combinator the service does not document.
 */
export function entitiesFound(spec: { directory: TeamDirectory; tree: RuleTree; entities: readonly EntityRecord[]; blueprint?: string }): Record<World, JsonObject[]> | undefined {
  if (!documented(spec.tree)) return undefined;
  const found: Record<World, JsonObject[]> = { before: [], after: [] };
  for (const entity of teamEntities(spec.directory, spec.entities, [])) {
    if (entity.record === undefined) continue;
    for (const world of ['before', 'after'] as const) if (treeMatches(spec.tree, entity, entity[world], spec.blueprint)) found[world].push({ ...entity.record, team: [...entity[world]] });
  }
  return found;
}

const documented = (node: RuleTree): boolean => (node.kind === 'group' ? (node.combinator === 'or' || node.combinator === 'and') && node.rules.every(documented) : own(MATCHERS, node.operator) !== undefined);

function treeMatches(node: RuleTree, entity: RuleEntity, held: readonly string[], blueprint: string | undefined): boolean {
  if (node.kind === 'group') return node.combinator === 'or' ? node.rules.some((rule) => treeMatches(rule, entity, held, blueprint)) : node.rules.every((rule) => treeMatches(rule, entity, held, blueprint));
  return own(MATCHERS, node.operator)!(node.kind === 'team' ? held : fieldValues(node.property, entity.record, blueprint), node.values);
}

/** What an entity's own field holds, as a rule compares it; a synthetic entity (no record) holds none but its blueprint. */
function fieldValues(property: string, record: EntityRecord | undefined, blueprint: string | undefined): string[] {
  if (property === '$blueprint') return blueprint === undefined ? [] : [blueprint];
  if (record === undefined) return [];
  const properties = record.properties;
  const raw = property === '$identifier' ? record.identifier : property === '$title' ? record.title : properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? properties[property] : undefined;
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.map((value) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' || value === null ? scalarLiteral(value) : NOT_A_STRING));
}

/**
 * A search over `_team` entities (a mapping's team search) exists only after the migration: the
 * first user with teams for whom, run after it, the value finds no team at all; undefined when it
 * finds one for every such user (or the operator is unknown, or jq gave no answer).
 */
export function findsNoTeamAfter(spec: Omit<RuleSpec, 'value'> & { value: readonly ValuePart[] }): { context: string; value: string } | undefined {
  // A team has one title and one identifier: `=` with a list of them finds each team it names.
  const operator = spec.operator === '=' ? 'in' : spec.operator;
  const prepared = prepare({ ...spec, operator, value: { before: spec.value, after: spec.value } });
  if (!prepared || 'class' in prepared) return undefined;
  for (const [u, user] of prepared.users.entries()) {
    // A value that reads no user is asked once, for any user.
    if (user.teams(0).length === 0 && prepared.readsUser) continue;
    const value = prepared.valuesOf(spec.value, u, 'after');
    if (!prepared.entities.some((entity) => prepared.match(entity.after, value))) return { context: prepared.readsUser ? `a user with ${userLabel(user)}` : 'any user', value: JSON.stringify(value) };
  }
  return undefined;
}

/** The class of one rule as written, run the same in both worlds. */
export function judgeRuleAsWritten(spec: Omit<RuleSpec, 'value'> & { value: readonly ValuePart[] }): RuleJudgement | undefined {
  return judgeRule({ ...spec, value: { before: spec.value, after: spec.value } });
}

/** `a team "Alpha"` → `team "Alpha"`: the case's label as the user's teams. */
const userLabel = (user: TeamCase) => user.label.replace(/^a team /, 'team ');

/** What was compared, in words: `["Alpha"] before and ["z_alpha"] after, against ["Alpha"]`. */
function compared(held: { before: readonly string[]; after: readonly string[] }, value: { before: readonly string[]; after: readonly string[] }): string {
  const show = (list: readonly string[]) => `[${list.map((v) => (v === NOT_A_STRING ? '"<not a string>"' : v === ERRORED ? '"<an error>"' : showLiteral(v))).join(',')}]`;
  const both = (pair: { before: readonly string[]; after: readonly string[] }) => (show(pair.before) === show(pair.after) ? show(pair.before) : `${show(pair.before)} before and ${show(pair.after)} after`);
  return `${both(held)}, against ${both(value)}`;
}

/** What a jq value stands for in a rule: its strings, a list's strings; anything else equals no team. */
function asStrings(result: EvaluateResult): string[] {
  if (!result.ok) return [ERRORED];
  return result.values.flatMap((value: JsonValue): string[] => {
    if (typeof value === 'string') return [value];
    if (value === null) return [];
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : typeof item === 'boolean' || typeof item === 'number' ? scalarLiteral(item) : NOT_A_STRING));
    return typeof value === 'boolean' || typeof value === 'number' ? [scalarLiteral(value)] : [NOT_A_STRING];
  });
}

/** The rule's values with each identifier written as its team's title: what it would have said before the migration. */
export function valuesAsTitles(directory: TeamDirectory, values: readonly string[]): string[] | undefined {
  const titleOf = new Map<string, string>();
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined && team.identifier !== team.title) titleOf.set(team.identifier, team.title);
  if (!values.some((v) => titleOf.has(v) && !directory.byTitle.has(v))) return undefined;
  return values.map((v) => (directory.byTitle.has(v) ? v : (titleOf.get(v) ?? v)));
}
