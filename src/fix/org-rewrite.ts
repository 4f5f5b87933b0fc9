import type { JqEngine } from '../jq/engine.js';
import { own, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { Finding } from '../model/finding.js';
import { missingFix, unprovenRewrite } from './fix-kit.js';
import { fileName, uniqueNames } from './kit-names.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { splitPath } from '../repo/located-json.js';
import { isPlainText, templateExpressions } from '../catalog/walk.js';
import { parsedJson } from '../parse-json.js';

type Segment = string | number;

/** Where a finding of the org points: the record it is in and the path inside that record. */
export interface OrgTarget {
  /** `org/<type>/<identifier>.json`, or `….permissions.json` for a resource's permissions. */
  file: string;
  record: JsonObject;
  path: Segment[];
}

/** Findings whose rewrite is not a new value for their location: the migration or the data-migration files carry them. */
const NOT_A_VALUE: ReadonlySet<string> = new Set(['ownership-direct', 'ownership-inherited', 'team-relation-removed', 'relation-ownership', 'team-permission-identifiers']);

/** The record of `snapshot` a finding of the org is about, or undefined (a file finding, a resource not in the snapshot). */
export function locateOrgTarget(snapshot: OrgSnapshot, finding: Finding): OrgTarget | undefined {
  const { type, identifier } = finding.resource;
  const path = [...splitPath(finding.location)];
  const safe = kindNames(snapshot, type).get(identifier) ?? fileName(identifier);
  if (type === 'scorecard') {
    const [blueprint, scorecard] = splitScorecardId(identifier);
    const record = (snapshot.scorecards ?? []).find((item) => isObject(item) && item.blueprint === blueprint && item.identifier === scorecard);
    return isObject(record) ? { file: `org/scorecard/${safe}.json`, record, path } : undefined;
  }
  const place = own(PLACES, type);
  if (place?.permissions !== undefined && path[0] === 'permissions') {
    const record = own(snapshot[place.permissions], identifier);
    return isObject(record) ? { file: `org/${type}/${safe}.permissions.json`, record, path: path.slice(1) } : undefined;
  }
  const list = place && snapshot[place.list];
  if (!list) return undefined;
  for (const key of place.keys) {
    const record = indexOf(list, key).get(identifier);
    if (record) return { file: `org/${type}/${safe}.json`, record, path };
  }
  return undefined;
}

/** Where each resource type's records stand in a snapshot, the keys that may name one (in that order), and where its permissions are. */
const PLACES: Readonly<Record<string, { list: 'blueprints' | 'actions' | 'pages' | 'integrations' | 'webhooks'; keys: readonly string[]; permissions?: 'blueprintPermissions' | 'actionPermissions' | 'pagePermissions' }>> = {
  blueprint: { list: 'blueprints', keys: ['identifier'], permissions: 'blueprintPermissions' },
  action: { list: 'actions', keys: ['identifier'], permissions: 'actionPermissions' },
  automation: { list: 'actions', keys: ['identifier'], permissions: 'actionPermissions' },
  page: { list: 'pages', keys: ['identifier'], permissions: 'pagePermissions' },
  integration: { list: 'integrations', keys: ['installationId', 'identifier'] },
  webhook: { list: 'webhooks', keys: ['identifier'] },
};

/** Records by key, built once per list (a big org has thousands of findings over thousands of resources). */
const INDEXES = new WeakMap<readonly JsonObject[], { key: string; size: number; map: Map<unknown, JsonObject> }[]>();

function indexOf(list: readonly JsonObject[], key: string): Map<unknown, JsonObject> {
  const indexes = INDEXES.get(list) ?? [];
  let index = indexes.find((i) => i.key === key && i.size === list.length);
  if (!index) {
    const map = new Map<unknown, JsonObject>();
    for (const item of list) if (isObject(item) && !map.has(item[key])) map.set(item[key], item);
    index = { key, size: list.length, map };
    INDEXES.set(list, [...indexes.filter((i) => i.key !== key), index]);
  }
  return index.map;
}

function splitScorecardId(identifier: string): [string, string] {
  const slash = identifier.indexOf('/');
  return slash < 0 ? ['', identifier] : [identifier.slice(0, slash), identifier.slice(slash + 1)];
}

/** Per snapshot and resource type: each identifier's file name, clashes within the type resolved. */
const KIND_NAMES = new WeakMap<OrgSnapshot, Map<string, Map<string, string>>>();

function kindNames(snapshot: OrgSnapshot, type: string): Map<string, string> {
  const byType = KIND_NAMES.get(snapshot) ?? new Map<string, Map<string, string>>();
  KIND_NAMES.set(snapshot, byType);
  let names = byType.get(type);
  if (!names) {
    names = uniqueNames([...new Set(identifiersOf(snapshot, type))].map((key) => ({ key, base: fileName(key) })));
    byType.set(type, names);
  }
  return names;
}

/** The keys of one resource type in `snapshot`, its permissions' included: only that type's lists are read (a big org has thousands per type). */
function identifiersOf(snapshot: OrgSnapshot, type: string): string[] {
  if (type === 'scorecard') {
    return (snapshot.scorecards ?? []).flatMap((item) => (isObject(item) && typeof item.blueprint === 'string' && typeof item.identifier === 'string' ? [`${item.blueprint}/${item.identifier}`] : []));
  }
  const place = own(PLACES, type);
  if (place === undefined) return [];
  const list = snapshot[place.list] ?? [];
  const ids = place.keys.flatMap((key) => list.flatMap((item) => (isObject(item) && typeof item[key] === 'string' ? [item[key]] : [])));
  return [...ids, ...Object.keys((place.permissions && snapshot[place.permissions]) ?? {})];
}

export type RewriteOutcome = { applied: true } | { applied: false; missing: string };

/**
 * Put a finding's rewrite into `record` (mutated: callers pass their own copy). A string keeps the
 * rewrite as its new text; a list or object takes the parsed rewrite; a write to a removed team
 * relation moves to the mapping's `team`. jq is checked to compile first, so no file holds jq that fails.
 */
export function applyOrgRewrite(record: JsonObject, path: readonly Segment[], finding: Finding, jq: JqEngine | undefined): RewriteOutcome {
  if (NOT_A_VALUE.has(finding.category)) return { applied: false, missing: 'the migration or the data-migration files make this change' };
  if (finding.rewrite === undefined) return { applied: false, missing: missingFix(finding) };
  const unproven = unprovenRewrite(finding);
  if (unproven !== undefined) return { applied: false, missing: unproven };
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1];
  const parent = valueAt(record, parentPath);
  if (key === undefined || !isContainer(parent) || !(key in parent)) return { applied: false, missing: `the value at ${finding.location} is no longer there` };
  const current = (parent as Record<string | number, JsonValue>)[key];
  const parsed = parsedJson(finding.rewrite);

  // `{"team": …}` for a relation write (a string or a list of them): the value moves from relations.<relation> to team.
  const moved = parentPath[parentPath.length - 1] === 'relations' ? teamWrite(parsed) : undefined;
  if (moved !== undefined) {
    for (const text of typeof moved === 'string' ? [moved] : moved) {
      const compiles = checkJq(text, finding.location, jq);
      if (compiles !== undefined) return { applied: false, missing: compiles };
    }
    const mapping = valueAt(record, parentPath.slice(0, -1));
    if (!isObject(mapping)) return { applied: false, missing: `the mapping around ${finding.location} is not an object` };
    delete (parent as JsonObject)[key as string];
    if (Object.keys(parent as JsonObject).length === 0) delete mapping.relations;
    mapping.team = moved;
    return { applied: true };
  }
  if (typeof current === 'string') {
    const compiles = checkJq(finding.rewrite, finding.location, jq);
    if (compiles !== undefined) return { applied: false, missing: compiles };
    (parent as Record<string | number, JsonValue>)[key] = finding.rewrite;
    return { applied: true };
  }
  if (parsed === undefined) return { applied: false, missing: `the rewrite is not JSON, so it cannot replace the ${Array.isArray(current) ? 'list' : 'value'} at ${finding.location}` };
  (parent as Record<string | number, JsonValue>)[key] = parsed;
  return { applied: true };
}

/** The `team` of a `{"team": …}` rewrite: a string or a list of strings, else undefined. */
function teamWrite(parsed: JsonValue | undefined): string | string[] | undefined {
  const team = isObject(parsed) ? parsed.team : undefined;
  if (typeof team === 'string') return team;
  return Array.isArray(team) && team.every((item): item is string => typeof item === 'string') ? team : undefined;
}

/** Fields that hold jq in the org's resources; a rewrite there must compile. */
const JQ_FIELD = /(^|\.)(calculation|jqQuery)$|conditions\[\d+\]$|expressions\[\d+\]$|(^|\.)(mappings|entity|mapping)(\[\d+\])?\.(identifier|title|team|blueprint|icon|properties\.[^.]+|relations\.[^.]+)$|(^|\.)(team|teams)$/;

const MAPPING_FIELD = /(^|\.)(mappings|entity|mapping)(\[\d+\])?\./;

/** undefined when the jq compiles (or no jq engine is loaded to say), else why the rewrite is not used. */
function checkJq(text: string, location: string, jq: JqEngine | undefined): string | undefined {
  if (!jq) return undefined;
  // A mapping reads plain text as a literal (a team identifier written for a title), as the rule does.
  const literal = MAPPING_FIELD.test(location) && isPlainText(text);
  const expressions = text.includes('{{') ? templateExpressions(text) : JQ_FIELD.test(location) && !literal ? [text] : [];
  for (const expression of expressions) {
    const result = jq.validate(expression);
    if (!result.ok) return `a rewrite that compiles: jq rejects ${JSON.stringify(expression)} (${result.error})`;
  }
  return undefined;
}

function valueAt(root: JsonValue, path: readonly Segment[]): JsonValue | undefined {
  let value: JsonValue | undefined = root;
  for (const segment of path) {
    if (!isContainer(value)) return undefined;
    value = (value as Record<string | number, JsonValue>)[segment];
  }
  return value;
}

const isContainer = (value: unknown): value is JsonObject | JsonValue[] => typeof value === 'object' && value !== null;
