import { trimUser } from '../access/users.js';
import { InputError } from '../errors.js';
import { isObject, type JsonObject, type JsonValue } from '../model/json.js';
import { REDACTED, redactedAt } from './redact.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';
import { emptyInheritanceNote } from '../catalog/inheritance.js';
import { joinPath } from '../catalog/location.js';
import { MAX_NESTING_DEPTH, pruneDeepNesting } from './nesting.js';
import { isTeamRule } from '../catalog/walk.js';
import { appendAll } from '../model/arrays.js';

/**
 * org-snapshot/1 (docs/formats.md, the org snapshot) as a small shape description, checked by one walker.
 *
 * The shapes say what the rules understand. Real payloads are wider, so a value that does not
 * fit is not an error: every misfit is collected and becomes one note in the report (the rules
 * read such a value as far as they can, or skip it, and the note says where). Only a document
 * that is no org snapshot at all stops the run; `strict` keeps the older behaviour of stopping
 * (exit 2, one line) at the first misfit.
 * - `null` is the same as absent, everywhere a field may be absent: real payloads carry
 *   `teamInheritance: null`, `ownership: null`, `team: null`. Array elements are not fields: a
 *   `null` element is a value of the wrong type.
 * - Unknown extra fields are kept and not checked, except where the rules themselves look at
 *   every key (`teams` lists at any depth of a permissions document, any `jqQuery` in action
 *   inputs and search rules): there the `rest` shape checks them too.
 * - The document is returned as read (a recording keeps everything). `analysableSnapshot` is
 *   what the rules get: an element of a top-level list, or a top-level key, of the wrong type
 *   left out, since no rule can read it; its note says so.
 */
type Shape =
  | { kind: 'string' | 'boolean' | 'any' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'array'; items: Shape; label: string }
  /** `walks`: check walks its members, having a shape for some of them (else only its required fields are checked). */
  | { kind: 'object'; fields: ReadonlyMap<string, Shape>; required: readonly string[]; rest?: Shape; label: string; walks: boolean }
  /** One shape per JSON type the value may have; the value's own type picks which applies. */
  | { kind: 'union'; options: Partial<Record<JsonType, Shape>> }
  /** A shape that depends on the value itself (a search rule vs. a nested group of rules). */
  | { kind: 'pick'; choose: (value: unknown) => Shape; label?: string }
  /** For recursive shapes (nested widgets, nested rule groups). */
  | { kind: 'lazy'; get: () => Shape };

type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** Every shape made with every field, in one order: the check reads them on one hidden class, not on nine (the 10x org read with about 4 % less CPU). */
const ALL_FIELDS = { kind: '', values: undefined, items: undefined, label: undefined, fields: undefined, required: undefined, rest: undefined, walks: false, options: undefined, choose: undefined, get: undefined };
const uniform = (made: Shape): Shape => ({ ...ALL_FIELDS, ...made }) as Shape;
const str: Shape = uniform({ kind: 'string' });
const bool: Shape = uniform({ kind: 'boolean' });
const any: Shape = uniform({ kind: 'any' });
const oneOf = (...values: string[]): Shape => uniform({ kind: 'enum', values });
const arrayOf = (items: Shape, label = 'an array'): Shape => uniform({ kind: 'array', items, label });
const strings = arrayOf(str, 'an array of strings');
const union = (options: Partial<Record<JsonType, Shape>>): Shape => uniform({ kind: 'union', options });
const lazy = (get: () => Shape): Shape => uniform({ kind: 'lazy', get });
const pick = (choose: (value: unknown) => Shape, label?: string): Shape => uniform({ kind: 'pick', choose, ...(label && { label }) });

interface ObjectOptions {
  /** Fields that must be present and not null. */
  required?: readonly string[];
  /** The shape of every other key; unchecked when omitted. */
  rest?: Shape;
  label?: string;
}
const object = (fields: Record<string, Shape>, options: ObjectOptions = {}): Shape => uniform({
  kind: 'object',
  fields: new Map(Object.entries(fields)),
  required: options.required ?? [],
  ...(options.rest && { rest: options.rest }),
  label: options.label ?? 'an object',
  walks: options.rest !== undefined || Object.keys(fields).length > 0,
});
const mapOf = (items: Shape): Shape => object({}, { rest: items, label: 'an object keyed by identifier' });

/** Any JSON, but every `jqQuery` inside must be a string: action inputs and rule values hold jq there. */
const jqAware: Shape = lazy(() => JQ_AWARE);
const JQ_AWARE: Shape = union({
  object: object({ jqQuery: str }, { rest: jqAware }),
  array: arrayOf(jqAware),
  string: any,
  number: any,
  boolean: any,
  null: any,
});

// Search queries: `{combinator, rules: [{property, operator, value} | nested query]}`.
const query: Shape = lazy(() => QUERY);
/** A rule's property: a name, or a path over relations (`{path: ["$team", "parent"]}`). */
const PROPERTY = union({ string: str, object: object({ path: strings }, { required: ['path'], label: 'an object with a path' }) });
/** A names rule's object value: jq, or the service's context value (`{context: "user" | "userTeams", property}`). */
const JQ_VALUE = object({ jqQuery: str }, { required: ['jqQuery'], rest: jqAware });
const CONTEXT_VALUE = object({ context: str, property: str }, { required: ['context', 'property'], rest: jqAware });
const namesRuleObjectOf = (value: unknown): Shape => (isObject(value) && 'context' in value && !('jqQuery' in value) ? CONTEXT_VALUE : JQ_VALUE);
/**
 * A `$team` rule's value is compared with team titles, a `$blueprint` rule's with blueprint
 * identifiers (it tells a policy query's blueprint): a name, a list of them, or `{jqQuery}`.
 */
const NAMES_RULE = object(
  {
    property: PROPERTY,
    operator: str,
    value: union({ string: str, array: strings, object: pick(namesRuleObjectOf, 'an object') }),
  },
  { rest: jqAware },
);
const RULE = object({ property: PROPERTY, operator: str, value: jqAware }, { rest: jqAware });
const isBlueprintRule = (rule: JsonObject): boolean => rule.property === '$blueprint';
/** As the rules walk them (src/catalog/walk.ts searchRules): an element with `rules` is a nested group. */
const ruleOrGroupOf = (value: unknown): Shape => (isObject(value) && value.rules != null ? query : isObject(value) && (isTeamRule(value) || isBlueprintRule(value)) ? NAMES_RULE : RULE);
const ruleOrGroup = pick(ruleOrGroupOf);
const QUERY: Shape = object({ combinator: str, rules: arrayOf(ruleOrGroup) }, { rest: jqAware });
/** A widget dataset: a query, or (number charts) the list of its rules. */
const DATASET = union({ object: query, array: arrayOf(ruleOrGroup) });

// Permissions. team-permission-identifiers reads every `teams` list at any depth outside `policy`.
const POLICY = object({ queries: mapOf(query), conditions: strings });
const permissionNode: Shape = lazy(() => PERMISSION_NODE);
/** A permissions object at any depth: its own leaf fields, then every other object below it. */
const permissions = (fields: Record<string, Shape> = {}): Shape =>
  object(
    { roles: strings, users: strings, teams: strings, ownedByTeam: bool, policy: POLICY, ...fields },
    { rest: union({ object: permissionNode, string: any, number: any, boolean: any, array: any, null: any }) },
  );
const PERMISSION_NODE = permissions();
const BLUEPRINT_PERMISSIONS = permissions({
  entities: permissions(
    {
      register: permissionNode,
      update: permissionNode,
      unregister: permissionNode,
      read: permissionNode,
      updateProperties: mapOf(permissionNode),
      updateMetadataProperties: mapOf(permissionNode),
      updateRelations: mapOf(permissionNode),
    },
  ),
});
const ACTION_PERMISSIONS = permissions({ execute: permissionNode, approve: permissionNode });
const PAGE_PERMISSIONS = permissions({ read: permissionNode });

// Blueprints.
const BLUEPRINT = object(
  {
    identifier: str,
    title: str,
    relations: mapOf(object({ target: str, many: bool, required: bool, title: str }, { required: ['target'] })),
    calculationProperties: mapOf(object({ calculation: str, title: str, type: str }, { required: ['calculation'] })),
    mirrorProperties: mapOf(object({ path: str, title: str }, { required: ['path'] })),
    // `{}` (no path) is no inheritance; the loader notes it where it matters.
    teamInheritance: object({ path: str }),
    ownership: object({ type: oneOf('Direct', 'Inherited'), path: str }, { required: ['type'] }),
  },
  { required: ['identifier'] },
);

// Entity mappings: action UPSERT_ENTITY mappings, integration and webhook mappings.
// `team` and relation values may be lists: each string is one expression, each object a query.
const mappingValues = arrayOf(union({ string: str, object: query }));
const ENTITY_MAPPING = object({
  identifier: union({ string: str, object: query }),
  title: str,
  blueprint: str,
  team: union({ string: str, object: query, array: mappingValues }),
  properties: object({}),
  relations: mapOf(union({ string: str, object: query, array: mappingValues })),
});

// Actions (v2; older actions keep `userInputs` and `mapping.entity` at the top).
const USER_INPUTS = object(
  {
    properties: mapOf(object({ blueprint: union({ string: str, object: jqAware }), dataset: query }, { rest: jqAware })),
  },
  { rest: jqAware },
);
const ACTION = object(
  {
    identifier: str,
    title: str,
    blueprint: str,
    // An older (v1) action names its operation in a string trigger; the rules read it as no v2 trigger.
    trigger: union({
      string: oneOf('CREATE', 'DAY-2', 'DELETE'),
      object: object({
        type: str,
        blueprintIdentifier: str,
        event: object({ type: str, blueprintIdentifier: str }),
        userInputs: USER_INPUTS,
        condition: object({ type: str, expressions: strings, combinator: str }),
      }),
    }),
    userInputs: USER_INPUTS,
    invocationMethod: object({
      type: str,
      blueprintIdentifier: str,
      url: str,
      headers: object({}, { rest: str }),
      // The v2 UPSERT_ENTITY mapping holds identifier, team, ... itself; the older one under `entity`.
      mapping: pick((value) => (isObject(value) && value.entity != null ? object({ entity: ENTITY_MAPPING }) : ENTITY_MAPPING)),
    }),
    mapping: object({ entity: ENTITY_MAPPING }),
  },
  { required: ['identifier'] },
);

// Pages.
const widget: Shape = lazy(() => WIDGET);
const WIDGET: Shape = object({
  blueprint: str,
  widgets: arrayOf(widget),
  excludedFields: strings,
  dataset: DATASET,
  blueprintConfig: mapOf(
    object({
      filterSettings: object({ filterBy: query }),
      sortSettings: object({ sortBy: arrayOf(object({ property: str, order: str })) }),
      groupSettings: object({ groupBy: strings }),
      propertiesSettings: object({ hidden: strings, shown: strings, order: strings }),
    }),
  ),
});
const PAGE = object({ identifier: str, title: str, blueprint: str, widgets: arrayOf(widget) }, { required: ['identifier'] });

// Integrations and webhooks.
const INTEGRATION = object({
  installationId: str,
  identifier: str,
  integrationType: str,
  title: str,
  config: object({
    resources: arrayOf(
      object({ kind: str, port: object({ entity: object({ mappings: union({ object: ENTITY_MAPPING, array: arrayOf(ENTITY_MAPPING) }) }) }) }),
    ),
  }),
});
const WEBHOOK = object({ identifier: str, title: str, mappings: arrayOf(object({ blueprint: str, entity: ENTITY_MAPPING })) });

// Scorecards (docs/formats.md, the org snapshot): rule conditions and filters are search rules under `conditions`.
const conditions: Shape = lazy(() => CONDITIONS);
const CONDITIONS = object({ combinator: str, conditions: arrayOf(pick((value) => (isObject(value) && value.conditions != null ? conditions : ruleOrGroupOf(value)))) }, { rest: jqAware });
const SCORECARD = object(
  {
    blueprint: str,
    identifier: str,
    title: str,
    filter: conditions,
    rules: arrayOf(object({ identifier: str, title: str, level: str, query: conditions }, { rest: jqAware })),
  },
  { required: ['identifier'] },
);

// Users (docs/formats.md, the org snapshot): a team or role is a name, or `{name}` as GET /v1/users returns it.
const NAMED = union({ string: str, object: object({ name: str }, { required: ['name'] }) });

// Entities: a million of them in a large org, so a list that fits is told by entityFits, not by walking the shapes.
const ENTITY_LIST = arrayOf(
  object({ identifier: str, title: str, team: union({ string: str, array: strings }), relations: object({}) }, { required: ['identifier'] }),
);

/**
 * Whether `entity` fits ENTITY_LIST's item with nothing to note: what check finds, without walking
 * the shapes (issue 41). A list with any entity that does not fit is walked, so its notes are check's own.
 */
export function entityFits(entity: unknown): boolean {
  if (!isObject(entity)) return false;
  const { identifier, title, team, relations } = entity;
  if (typeof identifier !== 'string') return false;
  if (title != null && typeof title !== 'string') return false;
  if (relations != null && !isObject(relations)) return false;
  if (team == null || typeof team === 'string') return true;
  if (!Array.isArray(team)) return false;
  for (let index = 0; index < team.length; index++) if (typeof team[index] !== 'string') return false;
  return true;
}

const REQUIRED = ['organization', 'blueprints'];
/** The shape of each top-level member (docs/formats.md, the org snapshot); no other member has one. */
const TOP_LEVEL_SHAPES: Readonly<Record<string, Shape>> = {
  organization: object({ id: str, name: str }, { required: ['id', 'name'] }),
  blueprints: arrayOf(BLUEPRINT),
  blueprintPermissions: mapOf(BLUEPRINT_PERMISSIONS),
  actions: arrayOf(ACTION),
  actionPermissions: mapOf(ACTION_PERMISSIONS),
  pages: arrayOf(PAGE),
  pagePermissions: mapOf(PAGE_PERMISSIONS),
  integrations: arrayOf(INTEGRATION),
  webhooks: arrayOf(WEBHOOK),
  teams: arrayOf(object({ name: str, identifier: str }, { required: ['name'] })),
  entities: mapOf(ENTITY_LIST),
  scorecards: arrayOf(SCORECARD),
  users: arrayOf(object({ email: str, teams: arrayOf(NAMED), roles: arrayOf(NAMED) }, { required: ['email'] })),
  incomplete: arrayOf(object({ resource: str, reason: str }, { required: ['resource', 'reason'] })),
};
const ORG_SNAPSHOT = object(TOP_LEVEL_SHAPES, { required: REQUIRED });

/** A value that does not fit its shape, where it is. */
interface Problem {
  path: (string | number)[];
  expected: string;
  value: unknown;
}

function jsonType(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object' ? type : undefined;
}

function expectedOf(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'any':
      return 'a JSON value';
    case 'enum': {
      const values = shape.values.map((v) => JSON.stringify(v));
      return values.length > 2 ? `one of ${values.join(', ')}` : values.join(' or ');
    }
    case 'array':
    case 'object':
      return shape.label;
    case 'union': {
      const options = Object.values(shape.options).map(expectedOf);
      return options.length > 1 ? `${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}` : (options[0] ?? 'nothing');
    }
    case 'pick':
      return shape.label ?? 'a value of another shape';
    case 'lazy':
      return expectedOf(shape.get());
  }
}

/**
 * Every place `value` does not fit `shape`, depth first in document order. `path` is where `value`
 * is, one stack for the whole walk (pushed and popped around each child): a problem takes a copy of
 * it, so a walk over a million entities allocates nothing for the values that fit (issue 41: a new
 * path per value was most of the check's time and garbage).
 */
function check(shape: Shape, value: unknown, path: (string | number)[], problems: Problem[]): void {
  switch (shape.kind) {
    case 'any':
      return;
    case 'string':
    case 'boolean':
      if (typeof value !== shape.kind) mismatch(shape, value, path, problems);
      return;
    case 'enum':
      if (!(typeof value === 'string' && shape.values.includes(value))) mismatch(shape, value, path, problems);
      return;
    case 'lazy':
      return check(shape.get(), value, path, problems);
    case 'pick':
      return check(shape.choose(value), value, path, problems);
    case 'union': {
      const type = jsonType(value);
      const option = type ? shape.options[type] : undefined;
      if (!option) return mismatch(shape, value, path, problems);
      if (option === any) return;
      const before = problems.length;
      check(option, value, path, problems);
      // A misfit of the union's own value (not of something inside it, whose path is longer) names every option; sought only when any was found.
      const own = problems.length === before ? -1 : problems.findIndex((problem, index) => index >= before && problem.path.length === path.length);
      if (own >= 0) problems[own] = { path: problems[own]!.path, expected: expectedOf(shape), value };
      return;
    }
    case 'array':
      if (!Array.isArray(value)) return mismatch(shape, value, path, problems);
      if (shape === ENTITY_LIST && value.every(entityFits)) return;
      for (let index = 0; index < value.length; index++) {
        if (shape.items === str && typeof value[index] === 'string') continue; // the commonest fit, told without a call
        path.push(index);
        check(shape.items, value[index], path, problems);
        path.pop();
      }
      return;
    case 'object': {
      if (!isObject(value)) return mismatch(shape, value, path, problems);
      for (const key of shape.required) {
        if (value[key] == null) problems.push({ path: [...path, key], expected: expectedOf(shape.fields.get(key) ?? any), value: value[key] });
      }
      if (shape.walks) checkFields(shape, value, path, problems);
      return;
    }
  }
}

/** Each member of `record` against its field's shape (or `rest`), as check's object case does after its required fields. */
function checkFields(shape: Extract<Shape, { kind: 'object' }>, record: Readonly<Record<string, unknown>>, path: (string | number)[], problems: Problem[]): void {
  // for-in, not Object.keys: no list of keys made per object, which a reading pass pays again in collections.
  for (const key in record) {
    const field = record[key];
    if (field == null || !Object.hasOwn(record, key)) continue; // null is absent
    const fieldShape = shape.fields.get(key) ?? shape.rest;
    if (!fieldShape || (fieldShape === str && typeof field === 'string')) continue;
    path.push(key);
    check(fieldShape, field, path, problems);
    path.pop();
  }
}

function mismatch(shape: Shape, value: unknown, path: readonly (string | number)[], problems: Problem[]): void {
  problems.push({ path: [...path], expected: expectedOf(shape), value });
}

const describe = (value: unknown) =>
  value === undefined
    ? 'nothing (the field is missing)'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);

/** A misfit's value as a note quotes it: redacted as it will be where it stands (the check reads the snapshot before redaction). */
function quoted(problem: Problem): string {
  const { value } = problem;
  if (value === null || typeof value === 'object') return describe(value);
  const shown = redactedAt(problem.path, value as JsonValue);
  // A number cut is still said to be one: `got number <redacted>`.
  return typeof value === 'number' && shown !== value ? `number ${REDACTED}` : describe(shown);
}

export interface CheckedSnapshot {
  snapshot: OrgSnapshot;
  /** One line per value the rules could not read as it is, naming its path (report.notes). */
  notes: string[];
}

export interface CheckOptions {
  /** Stop at the first misfit (exit 2, one line) instead of noting every one. */
  strict?: boolean;
  /**
   * How deep the document's text nests (its brackets; the document itself is 1), when it was read
   * from text: at most MAX_NESTING_DEPTH, nothing in it is too deep, and it is not walked to find out.
   */
  textDepth?: number;
  /**
   * Top-level members already checked as they were read (memberCheck), with what was found: not
   * walked again. Only for a document nothing was cut from (textDepth at most MAX_NESTING_DEPTH).
   */
  checkedMembers?: ReadonlyMap<string, MemberFindings>;
}

/**
 * Check a parsed document against org-snapshot/1; `source` names the file in the one-line error.
 * Throws only for a document that is not an org snapshot at all, or, with `strict`, at the first
 * misfit; otherwise every misfit becomes a note and the run goes on.
 */
export function checkSnapshot(read: unknown, source: string, options: CheckOptions = {}): CheckedSnapshot {
  requireSnapshot(read, source);
  // A container at depth 100 (its brackets the 101st) is the shallowest whose items can be too deep.
  const { document, cut } = options.textDepth !== undefined && options.textDepth <= MAX_NESTING_DEPTH ? { document: read, cut: [] } : pruneDeepNesting(read);
  requireSnapshot(document, source);
  if (options.strict && cut.length > 0) throw new InputError(`${source}: field "${cut[0]}": nested deeper than ${MAX_NESTING_DEPTH} levels`);
  const checked = cut.length === 0 ? options.checkedMembers : undefined;
  const problems: Problem[] = [];
  checkTopLevel(document, problems, checked);
  const first = problems[0];
  if (options.strict && first) {
    throw new InputError(`${source}: field "${joinPath(...first.path)}": expected ${first.expected}, got ${quoted(first)}`);
  }
  const snapshot = document as unknown as OrgSnapshot;
  const notes = problems.map((problem) => {
    const text = `${joinPath(...problem.path)}: expected ${problem.expected}, got ${quoted(problem)}`;
    return isLeftOut(problem, document) ? `${text}; left out of the analysis` : text;
  });
  for (const path of cut) notes.push(`${path}: nested deeper than ${MAX_NESTING_DEPTH} levels, which no payload of the service does; left out of the analysis`);
  const blueprintsChecked = checked?.get('blueprints');
  if (blueprintsChecked !== undefined) appendAll(notes, blueprintsChecked.inheritanceNotes);
  else snapshot.blueprints.forEach((blueprint, index) => addInheritanceNote(blueprint, index, notes));
  appendAll(notes, duplicateIdentifierNotes(document, checked));
  return { snapshot, notes };
}

function addInheritanceNote(blueprint: unknown, index: number, notes: string[]): void {
  const note = isObject(blueprint) ? emptyInheritanceNote(blueprint) : undefined;
  if (note) notes.push(`${joinPath('blueprints', index, 'teamInheritance')}: ${note}`);
}

/** check(ORG_SNAPSHOT, document), with the members in `checked` taken as found, in their place. */
function checkTopLevel(document: Record<string, unknown>, problems: Problem[], checked: ReadonlyMap<string, MemberFindings> | undefined): void {
  if (checked === undefined) return check(ORG_SNAPSHOT, document, [], problems);
  // As check walks an object shape; the required members are there (requireSnapshot), and no other key has a shape.
  for (const key of Object.keys(document)) {
    const found = checked.get(key);
    if (found !== undefined) appendAll(problems, found.problems);
    else if (document[key] != null && Object.hasOwn(TOP_LEVEL_SHAPES, key)) check(TOP_LEVEL_SHAPES[key]!, document[key], [key], problems);
  }
}

/** What the check finds in one top-level member of a snapshot. */
export interface MemberFindings {
  problems: Problem[];
  /** For `blueprints`: the notes of blueprints whose team inheritance has no path. */
  inheritanceNotes: string[];
  /** For lists keyed by identifier: where each identifier stands. */
  identifiedAt: Map<string, number[]>;
}

/** A check of one top-level member fed a batch of its items at a time (a list's items, an object's members), in order. */
export interface MemberCheck {
  add(batch: readonly unknown[] | Readonly<Record<string, unknown>>, first: boolean): void;
  readonly found: MemberFindings;
}

/**
 * The check of one top-level member a batch at a time, finding what checkSnapshot finds walking
 * the whole document: the snapshot file's reader checks each batch as it is parsed, before its
 * secrets are cut (issue 41: one pass). undefined for a member whose shape names required fields
 * (the organization), which needs the whole object: checkSnapshot walks it.
 */
export function memberCheck(member: string): MemberCheck | undefined {
  const shape = Object.hasOwn(TOP_LEVEL_SHAPES, member) ? TOP_LEVEL_SHAPES[member] : undefined;
  if (shape !== undefined && shape.kind !== 'array' && !(shape.kind === 'object' && shape.required.length === 0)) return undefined;
  const found: MemberFindings = { problems: [], inheritanceNotes: [], identifiedAt: new Map() };
  const identified = (IDENTIFIED_LISTS as readonly string[]).includes(member);
  const path: (string | number)[] = [member];
  let fits = true;
  let count = 0;
  const add = (batch: readonly unknown[] | Readonly<Record<string, unknown>>, first: boolean) => {
    if (first && shape !== undefined && Array.isArray(batch) !== (shape.kind === 'array')) {
      fits = false;
      mismatch(shape, batch, path, found.problems);
    }
    if (Array.isArray(batch)) {
      for (const item of batch as readonly unknown[]) {
        const index = count++;
        if (fits && shape?.kind === 'array') {
          path.push(index);
          check(shape.items, item, path, found.problems);
          path.pop();
        }
        if (member === 'blueprints') addInheritanceNote(item, index, found.inheritanceNotes);
        if (identified) noteIdentifier(found.identifiedAt, item, index);
      }
    } else if (fits && shape?.kind === 'object') checkFields(shape, batch as Readonly<Record<string, unknown>>, path, found.problems);
  };
  return { add, found };
}

function noteIdentifier(at: Map<string, number[]>, item: unknown, index: number): void {
  const identifier = isObject(item) ? item.identifier : undefined;
  if (typeof identifier !== 'string') return;
  const seen = at.get(identifier);
  if (seen) seen.push(index);
  else at.set(identifier, [index]);
}

/** Lists whose entries the service keys by `identifier`: one entry per identifier in an org. */
const IDENTIFIED_LISTS = ['blueprints', 'actions', 'pages', 'webhooks'] as const;

/**
 * An identifier listed twice: the service holds one resource per identifier, so the file was edited
 * or merged by hand. Said, not guessed at: lookups by identifier use the last one.
 */
function duplicateIdentifierNotes(document: Record<string, unknown>, checked: ReadonlyMap<string, MemberFindings> | undefined): string[] {
  const notes: string[] = [];
  for (const list of IDENTIFIED_LISTS) {
    const items = document[list];
    if (!Array.isArray(items)) continue;
    let at = checked?.get(list)?.identifiedAt;
    if (at === undefined) {
      const found = new Map<string, number[]>();
      items.forEach((item, index) => noteIdentifier(found, item, index));
      at = found;
    }
    for (const [identifier, indexes] of at) {
      if (indexes.length < 2) continue;
      notes.push(`${list}: identifier ${JSON.stringify(identifier)} is listed ${indexes.length} times (${indexes.map((index) => joinPath(list, index)).join(', ')}); the service holds one per identifier, so the last is used where it is looked up`);
    }
  }
  return notes;
}

/** The strict check: the document as read, or an InputError at the first misfit. */
export function validateSnapshot(document: unknown, source: string): OrgSnapshot {
  return checkSnapshot(document, source, { strict: true }).snapshot;
}

/** Exit 2 territory: not an object, not this format, no organization or no blueprints list. */
function requireSnapshot(document: unknown, source: string): asserts document is Record<string, unknown> {
  if (!isObject(document)) throw new InputError(`${source}: expected an org-snapshot/1 JSON object, got ${describe(document)}`);
  if (document.format !== SNAPSHOT_FORMAT) {
    throw new InputError(`${source}: field "format": expected "${SNAPSHOT_FORMAT}", got ${describe(document.format)}`);
  }
  for (const key of REQUIRED) {
    if (document[key] == null) throw new InputError(`${source}: field "${key}" is missing; org-snapshot/1 requires it`);
  }
  // An organization whose id or name is of another type is still an organization: noted, not refused.
  const organization = document.organization;
  if (!isObject(organization)) throw new InputError(`${source}: field "organization": expected an object, got ${describe(organization)}`);
  if (!Array.isArray(document.blueprints)) throw new InputError(`${source}: field "blueprints": expected an array, got ${describe(document.blueprints)}`);
}

/** Top-level keys the catalog and every rule iterate, as lists or as maps keyed by identifier. */
const TOP_LEVEL_LISTS = ['blueprints', 'actions', 'pages', 'integrations', 'webhooks', 'teams', 'scorecards', 'incomplete'];
const TOP_LEVEL_MAPS = ['blueprintPermissions', 'actionPermissions', 'pagePermissions', 'entities'];

/** Whether `analysableSnapshot` leaves the misfit out: a top-level key, or an element of a top-level list. */
function isLeftOut(problem: Problem, document: Record<string, unknown>): boolean {
  const [key, index] = problem.path;
  // Gaps are never left out: analysableSnapshot turns any entry into a readable one.
  if (typeof key !== 'string' || key === 'incomplete') return false;
  if (problem.path.length === 1) return true;
  return problem.path.length === 2 && typeof index === 'number' && Array.isArray(document[key]) && !isObject(problem.value);
}

/**
 * The snapshot as the rules read it: a top-level list or map of the wrong type, or a list
 * element that is not an object, would fail every rule that meets it, so it is left out (its
 * note, from `checkSnapshot`, says so). Anything deeper is kept as read; nothing is mutated.
 */
export function analysableSnapshot(snapshot: OrgSnapshot): OrgSnapshot {
  const copy: Record<string, unknown> = { ...snapshot };
  // A gap the recording names stays a gap (exit 3) whatever its shape: a string, a lone object,
  // an entry with fields of other types; the report and its renderers only ever see strings.
  if (copy.incomplete != null) copy.incomplete = [copy.incomplete].flat().filter((entry) => entry != null).map(readableGap);
  for (const key of TOP_LEVEL_LISTS) {
    const value = copy[key];
    if (value == null) continue;
    if (!Array.isArray(value)) delete copy[key];
    else if (!value.every(isObject)) copy[key] = value.filter(isObject);
  }
  for (const key of TOP_LEVEL_MAPS) if (copy[key] != null && !isObject(copy[key])) delete copy[key];
  // docs/formats.md, the org snapshot: of a user, only email, teams and roles go on, whatever a hand-made file holds.
  if (Array.isArray(copy.users)) copy.users = copy.users.map(trimUser).filter((user) => user !== undefined);
  const organization = copy.organization as Record<string, unknown>;
  if (typeof organization.id !== 'string' || typeof organization.name !== 'string') {
    const id = textOf(organization.id) ?? textOf(organization.name) ?? '(unknown organization)';
    copy.organization = { ...organization, id, name: textOf(organization.name) ?? id };
  }
  return copy as unknown as OrgSnapshot;
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

function readableGap(entry: unknown): { resource: string; reason: string } {
  const fields: Record<string, unknown> = isObject(entry) ? entry : { resource: entry };
  return {
    resource: textOf(fields.resource) ?? '(unnamed resource)',
    reason: textOf(fields.reason) ?? 'the recording marks it as not read, without saying why',
  };
}
