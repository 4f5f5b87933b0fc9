import { field, located, stringField, take, type LocatedJson, type LocatedObject } from './located-json.js';
import { treeToJson, readEmbedded, type ConvertOptions } from './tree-to-json.js';
import { findEntry, normalizeKey, stringValue, treeChildren, type Entry, type ObjectNode, type Span, type TreeNode } from './tree.js';
import { TEAM_BLUEPRINT, USER_BLUEPRINT, type EntityRecord, type TeamRecord } from '../model/snapshot.js';

/** The snapshot resources a file can hold (docs/formats.md, the org snapshot). */
export type ResourceKind =
  | 'blueprint'
  | 'action'
  | 'page'
  | 'blueprint-permissions'
  | 'action-permissions'
  | 'page-permissions'
  | 'integration'
  | 'webhook'
  | 'scorecard';

/** A resource written in a file, in the service's shape; permissions hold the permissions object itself. */
export interface FileResource {
  kind: ResourceKind;
  /** The identifier as written (or the resource it grants on, for permissions). */
  identifier?: string;
  /** How the file names it when it has no identifier (`port_page.ops`, `ActionPermissions deploy`). */
  label?: string;
  value: LocatedObject;
  /** Written as a system blueprint (`port_system_blueprint`, Pulumi `SystemBlueprint`): it exists only once the org has migrated. */
  system?: true;
}

/** An entity written in a file: its `team` (or `teams`) entry is judged as literal team values. */
export interface FileEntity {
  identifier?: string;
  /** The blueprint the document names, when it does (`blueprint: service`). */
  blueprint?: string;
  team: Entry;
}

export interface FileDocuments {
  resources: FileResource[];
  entities: FileEntity[];
  /** Entities of `_team` and `_user` in an export (`{identifier, title, blueprint: "_team"}`): the org's teams and users. */
  systemEntities: { blueprint: string; record: EntityRecord; span: Span }[];
  /** Teams as the service lists them (`teams: [{name, …}]`, a user's `teams: [{name}]`). */
  teams: { record: TeamRecord; span: Span }[];
  /** Entities of `_team` or `_user` written at all, their identifier literal or not (a script's `{identifier: id, blueprint: "_team"}`). */
  systemWrites: { blueprint: string; span: Span }[];
}

export const emptyDocuments = (): FileDocuments => ({ resources: [], entities: [], systemEntities: [], teams: [], systemWrites: [] });

/** The system blueprints whose entities files and the repository catalog keep. */
export const SYSTEM_ENTITY_BLUEPRINTS: ReadonlySet<string> = new Set([TEAM_BLUEPRINT, USER_BLUEPRINT]);

/** `{identifier, title?, team?}` of an entity node, as the snapshot keeps it. */
function entityRecord(node: ObjectNode): EntityRecord | undefined {
  const identifier = stringValue(findEntry(node, 'identifier')?.value);
  if (identifier === undefined) return undefined;
  const title = stringValue(findEntry(node, 'title')?.value);
  const team = findEntry(node, 'team')?.value;
  const teams = team?.kind === 'list' ? team.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])) : team?.kind === 'string' ? [team.value] : undefined;
  return { identifier, ...(title !== undefined && { title }), ...(teams !== undefined && { team: teams }) };
}

/** A `teams` list of the service's team records (`{name, …}`), never a permission's list of names. */
function teamRecords(list: TreeNode, found: FileDocuments): boolean {
  if (list.kind !== 'list' || list.items.length === 0 || !list.items.every((item) => item.kind === 'object' && stringValue(findEntry(item, 'name')?.value) !== undefined)) return false;
  for (const item of list.items as ObjectNode[]) {
    const identifier = stringValue(findEntry(item, 'identifier')?.value);
    found.teams.push({ record: { name: stringValue(findEntry(item, 'name')?.value)!, ...(identifier !== undefined && { identifier }) }, span: item.span });
  }
  return true;
}

const PERMISSION_LEAVES = ['register', 'update', 'unregister', 'read', 'updateProperties', 'updateRelations', 'updateMetadataProperties'];

/** What a JSON document is, by the keys the service's shapes require. */
function documentKind(value: LocatedJson): ResourceKind | undefined {
  if (value.kind !== 'object') return undefined;
  const has = (key: string, kind: LocatedJson['kind']) => field(value, key)?.kind === kind;
  const identifier = stringField(value, 'identifier') !== undefined;
  if (has('trigger', 'object') || has('invocationMethod', 'object')) return 'action';
  if (has('widgets', 'array')) return 'page';
  if (hasItemWith(field(value, 'resources'), 'port')) return 'integration';
  if (hasItemWith(field(value, 'mappings'), 'entity')) return 'webhook';
  if (hasItemWith(field(value, 'rules'), 'level') || hasItemWith(field(value, 'rules'), 'query')) return 'scorecard';
  if (identifier && ['schema', 'teamInheritance', 'ownership', 'calculationProperties', 'mirrorProperties'].some((key) => field(value, key) !== undefined)) return 'blueprint';
  const relations = field(value, 'relations');
  if (identifier && relations?.kind === 'object' && relations.fields.size > 0 && [...relations.fields.values()].every((r) => stringField(r, 'target') !== undefined)) return 'blueprint';
  const entities = field(value, 'entities');
  if (entities?.kind === 'object' && PERMISSION_LEAVES.some((key) => field(entities, key)?.kind === 'object')) return 'blueprint-permissions';
  if (has('execute', 'object') || has('approve', 'object')) return 'action-permissions';
  // Page permissions: who may view (`read`) and who may edit (`update`) the page.
  const grants = (key: string) => {
    const leaf = field(value, key);
    return leaf?.kind === 'object' && ['teams', 'users', 'roles'].some((k) => field(leaf, k) !== undefined);
  };
  if (!identifier && (grants('read') || grants('update'))) return 'page-permissions';
  return undefined;
}

/**
 * Every key (as `normalizeKey` spells it) without which no object of a JSON file is a document
 * `findDocuments` takes: each shape of `documentKind`, an entity's `team`, a `teams` list of team
 * records, `_team` / `_user` entities (by `identifier` or listed under their blueprint).
 */
const DOCUMENT_KEYS: ReadonlySet<string> = new Set(['identifier', 'installationid', 'trigger', 'invocationmethod', 'widgets', 'resources', 'mappings', 'rules', 'entities', 'execute', 'approve', 'read', 'update', 'team', 'teams', 'user']);

/**
 * Whether a JSON value (as `JSON.parse` gives it, escapes decoded) may hold a document: an object
 * with one of the keys documents need, or a string that may be a document written as text (a
 * bracket in it; `readEmbedded` reads those). False for most of a repository's JSON (package
 * settings, fixtures, lock files), which the file parser then never reads (issue 41).
 */
export function mayHoldDocuments(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{') || value.includes('[');
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(mayHoldDocuments);
  for (const [key, child] of Object.entries(value)) if (DOCUMENT_KEYS.has(normalizeKey(key)) || mayHoldDocuments(child)) return true;
  return false;
}

/** The permissions kind a resource may carry inside itself, as exports and the actions' JSON editor write them. */
const PERMISSIONS_OF: Partial<Record<ResourceKind, ResourceKind>> = { action: 'action-permissions', blueprint: 'blueprint-permissions', page: 'page-permissions' };

/**
 * `{identifier, trigger, …, permissions: {execute: {teams}, approve: {teams}}}`: the permissions a
 * document carries with the resource are the resource's permissions, judged as such.
 */
function embeddedPermissions(kind: ResourceKind, value: LocatedObject): FileResource | undefined {
  const permissionsKind = PERMISSIONS_OF[kind];
  const permissions = field(value, 'permissions');
  if (!permissionsKind || permissions?.kind !== 'object' || permissions.fields.size === 0) return undefined;
  const identifier = stringField(value, 'identifier');
  return { kind: permissionsKind, ...(identifier !== undefined && { identifier }), label: `${kind} ${identifier ?? '?'} permissions`, value: permissions };
}

function hasItemWith(list: LocatedJson | undefined, key: string): boolean {
  return list?.kind === 'array' && list.items.some((item) => field(item, key) !== undefined);
}

/**
 * Every resource and entity in a file of no fixed shape (a JSON file, an API script's bodies):
 * the outermost object that is a known shape is taken whole; containers (`{actions: […]}`,
 * arrays, a script's statements) are looked through.
 */
export function findDocuments(node: TreeNode, options: ConvertOptions, found: FileDocuments = emptyDocuments()): FileDocuments {
  switch (node.kind) {
    case 'object': {
      const value = treeToJson(node, { node }, options);
      const kind = value && documentKind(value);
      if (value?.kind === 'object' && kind) {
        found.resources.push({ kind, ...identity(value), value });
        const embedded = embeddedPermissions(kind, value);
        if (embedded) found.resources.push(embedded);
        return found;
      }
      const team = findEntry(node, 'team');
      const identifier = findEntry(node, 'identifier');
      const blueprint = stringValue(findEntry(node, 'blueprint')?.value);
      const record = blueprint !== undefined && SYSTEM_ENTITY_BLUEPRINTS.has(blueprint) ? entityRecord(node) : undefined;
      if (record) found.systemEntities.push({ blueprint: blueprint!, record, span: node.span });
      if (identifier && blueprint !== undefined && SYSTEM_ENTITY_BLUEPRINTS.has(blueprint)) found.systemWrites.push({ blueprint, span: node.span });
      if (team && identifier && team.value.kind !== 'object') {
        found.entities.push({ ...(identifier.value.kind === 'string' ? { identifier: identifier.value.value } : {}), ...(blueprint !== undefined && { blueprint }), team });
        return found;
      }
      if (record) return found;
      for (const entry of node.entries) {
        // `{"_team": [{identifier, title}]}`: entities listed by blueprint, as a snapshot keeps them.
        if (SYSTEM_ENTITY_BLUEPRINTS.has(entry.key) && entry.value.kind === 'list') {
          for (const item of entry.value.items) {
            const listed = item.kind === 'object' ? entityRecord(item) : undefined;
            if (listed) found.systemEntities.push({ blueprint: entry.key, record: listed, span: item.span });
          }
          continue;
        }
        if (normalizeKey(entry.key) === 'teams' && teamRecords(entry.value, found)) continue;
        findDocuments(entry.value, options, found);
      }
      for (const item of node.items) findDocuments(item, options, found);
      return found;
    }
    case 'string': {
      const embedded = readEmbedded(node, options.problems);
      return embedded ? findDocuments(embedded, options, found) : found;
    }
    default:
      for (const child of treeChildren(node)) findDocuments(child, options, found);
      return found;
  }
}

function identity(value: LocatedObject): { identifier?: string } {
  const identifier = stringField(value, 'identifier') ?? stringField(value, 'installationId');
  return identifier !== undefined ? { identifier } : {};
}

/**
 * A Terraform resource or Pulumi constructor's arguments (or a mapping config), as the resource
 * the provider sends: permissions become the permissions object, actions the v2 action shape.
 */
export function iacResource(kind: ResourceKind, args: LocatedObject, label: string): FileResource {
  switch (kind) {
    case 'action':
      reshapeAction(args);
      break;
    case 'blueprint-permissions':
    case 'page-permissions': {
      const key = kind === 'blueprint-permissions' ? 'blueprintIdentifier' : 'pageIdentifier';
      const identifier = stringField(args, key);
      take(args, key);
      return { kind, label, ...(identifier !== undefined ? { identifier } : {}), value: args };
    }
    case 'action-permissions': {
      const identifier = stringField(args, 'actionIdentifier');
      const permissions = field(args, 'permissions');
      const value = permissions?.kind === 'object' ? permissions : located.object(args.origin);
      return { kind, label, ...(identifier !== undefined ? { identifier } : {}), value };
    }
    case 'integration': {
      const type = stringField(args, 'integrationType') ?? stringField(args, 'kind');
      if (type !== undefined) args.fields.set('integrationType', located.scalar(type, args.origin));
      break;
    }
    default:
      break;
  }
  return { kind, label, ...identity(args), value: args };
}

const METHODS: Readonly<Record<string, string>> = { webhookMethod: 'WEBHOOK', githubMethod: 'GITHUB', gitlabMethod: 'GITLAB', azureMethod: 'AZURE_DEVOPS', kafkaMethod: 'KAFKA', upsertEntityMethod: 'UPSERT_ENTITY' };

/**
 * The provider's action (`self_service_trigger`, `automation_trigger`, `*_method`) in the v2
 * API shape: `trigger.userInputs.properties.<input>.visible.jqQuery`, `invocationMethod.mapping`.
 */
function reshapeAction(action: LocatedObject): void {
  const selfService = take(action, 'selfServiceTrigger');
  if (selfService?.kind === 'object') {
    selfService.fields.set('type', located.scalar('self-service', selfService.origin));
    const userProperties = take(selfService, 'userProperties');
    const inputs = located.object(userProperties?.origin ?? selfService.origin);
    const properties = located.object(inputs.origin);
    if (userProperties?.kind === 'object') {
      for (const group of userProperties.fields.values()) {
        if (group.kind !== 'object') continue;
        for (const [name, input] of group.fields) if (input.kind === 'object') properties.fields.set(name, jqAttributes(input));
      }
    }
    inputs.fields.set('properties', properties);
    const required = take(selfService, 'requiredJqQuery');
    if (required) inputs.fields.set('required', located.object(required.origin, [['jqQuery', required]]));
    const order = take(selfService, 'orderProperties');
    if (order) inputs.fields.set('order', order);
    selfService.fields.set('userInputs', inputs);
    action.fields.set('trigger', selfService);
  }
  const automation = take(action, 'automationTrigger');
  if (automation?.kind === 'object') {
    const trigger = located.object(automation.origin, [['type', located.scalar('automation', automation.origin)]]);
    for (const [key, value] of automation.fields) {
      if (key === 'jqCondition' && value.kind === 'object') {
        value.fields.set('type', located.scalar('JQ', value.origin));
        trigger.fields.set('condition', value);
      } else if (key.endsWith('Event') && value.kind === 'object') trigger.fields.set('event', value);
    }
    action.fields.set('trigger', trigger);
  }
  for (const [key, type] of Object.entries(METHODS)) {
    const method = take(action, key);
    if (method?.kind !== 'object') continue;
    method.fields.set('type', located.scalar(type, method.origin));
    if (type === 'UPSERT_ENTITY') upsertMapping(method);
    action.fields.set('invocationMethod', method);
  }
}

/** `visible_jq_query = "…"` → `visible: {jqQuery: "…"}`; dataset rule values `{jq_query}` are already `{jqQuery}`. */
function jqAttributes(input: LocatedObject): LocatedObject {
  for (const [key, value] of [...input.fields]) {
    const match = /^(\w+)JqQuery$/.exec(key);
    if (!match) continue;
    input.fields.delete(key);
    input.fields.set(match[1]!, located.object(value.origin, [['jqQuery', value]]));
  }
  return input;
}

/**
 * The provider writes the UPSERT mapping flat or under `mapping`, with `teams` (literal team
 * names) and `teams_jq`; the API mapping has one `team`, a list of names or an expression.
 */
function upsertMapping(method: LocatedObject): void {
  const nested = take(method, 'mapping');
  const mapping = nested?.kind === 'object' ? nested : located.object(method.origin);
  for (const key of ['identifier', 'title', 'icon', 'properties', 'relations', 'teams', 'teamsJq']) {
    const value = take(method, key);
    if (value) mapping.fields.set(key, value);
  }
  const teamsJq = take(mapping, 'teamsJq');
  const teams = take(mapping, 'teams');
  if (teamsJq) mapping.fields.set('team', teamsJq);
  // Literal team names: the API's `team` list of plain strings, each judged as a team value.
  else if (teams) mapping.fields.set('team', teams);
  method.fields.set('mapping', mapping);
}

/** The object a Terraform block or constructor call stands for. */
export function argumentsJson(object: ObjectNode, options: ConvertOptions): LocatedObject {
  const value = treeToJson(object, { node: object }, options);
  return value?.kind === 'object' ? value : located.object({ node: object });
}
