import type { Catalog } from '../catalog/catalog.js';
import type { AccessPermission } from '../model/access.js';
import type { ResourceRef } from '../model/finding.js';
import { keyedRecord, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import { userInputs } from '../rules/action-user-input.js';
import { joinPath } from '../catalog/location.js';
import { actionRef, isAutomation, pageRef } from '../catalog/resources.js';

/**
 * How a permission is decided:
 * - `lists`: explicit roles, users and teams (and `ownedByTeam`). The migration rewrites the team
 *   entries and the teams entities hold alike, so these never change who has access; they are
 *   still computed, so a wrong rewrite would show.
 * - `conditions`: jq that must hold for the user (a policy's conditions, an input's `visible`).
 * - `form-required`: the form's `required: {jqQuery}`, whose first output lists required inputs.
 */
export type AccessRule =
  | { kind: 'lists'; roles: string[]; users: string[]; teams: string[] }
  | { kind: 'conditions'; expressions: string[] }
  | { kind: 'form-required'; expression: string; input: string };

/** One permission of one resource for which the report can say who has it. */
export interface PermissionSite {
  resource: ResourceRef;
  permission: AccessPermission;
  input?: string;
  /** Findings at or below one of these locations of the resource are what can change it. */
  locations: string[];
  rule: AccessRule;
}

const strings = (value: JsonValue | undefined): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function listsRule(node: JsonObject): AccessRule {
  return { kind: 'lists', roles: strings(node.roles), users: strings(node.users), teams: strings(node.teams) };
}

/** Input attributes that decide whether a user sees, must fill or may change an input. */
const INPUT_ATTRIBUTES = ['visible', 'required', 'disabled'] as const;

/** Every action, input and page permission the snapshot holds, in snapshot order. */
export function permissionSites(catalog: Catalog): PermissionSite[] {
  const sites: PermissionSite[] = [];
  for (const [id, permissions] of Object.entries(catalog.snapshot.actionPermissions ?? {})) {
    if (!isObject(permissions)) continue;
    const action = catalog.actions.get(id);
    const resource: ResourceRef = action ? actionRef(action) : { type: 'action', identifier: id };
    for (const stage of ['execute', 'approve'] as const) {
      const node = permissions[stage];
      if (!isObject(node)) continue;
      // Dynamic permissions (the service's docs): with a policy, the policy alone decides who may
      // run or approve, and the lists only who can see the action; without one, the lists do both.
      if (!isObject(node.policy)) {
        sites.push({ resource, permission: stage, locations: [joinPath('permissions', stage)], rule: listsRule(node) });
        continue;
      }
      const conditions = strings(node.policy.conditions);
      sites.push({ resource, permission: stage, locations: [joinPath('permissions', stage, 'policy')], rule: { kind: 'conditions', expressions: conditions } });
      if (stage === 'execute') sites.push({ resource, permission: 'see', locations: [joinPath('permissions', stage, 'roles'), joinPath('permissions', stage, 'users'), joinPath('permissions', stage, 'teams')], rule: listsRule(node) });
    }
  }
  for (const action of catalog.snapshot.actions ?? []) {
    if (isAutomation(action)) continue;
    const form = userInputs(action);
    if (!form) continue;
    const resource = actionRef(action);
    const properties = isObject(form.inputs.properties) ? form.inputs.properties : keyedRecord();
    const formRequired = isObject(form.inputs.required) && typeof form.inputs.required.jqQuery === 'string' ? form.inputs.required.jqQuery : undefined;
    for (const [input, definition] of Object.entries(properties)) {
      if (!isObject(definition)) continue;
      for (const attribute of INPUT_ATTRIBUTES) {
        const value = definition[attribute];
        if (!isObject(value) || typeof value.jqQuery !== 'string') continue;
        const location = joinPath(...form.base, 'properties', input, attribute);
        sites.push({ resource, permission: attribute, input, locations: [location], rule: { kind: 'conditions', expressions: [value.jqQuery] } });
      }
      if (formRequired !== undefined) {
        sites.push({ resource, permission: 'required', input, locations: [joinPath(...form.base, 'required')], rule: { kind: 'form-required', expression: formRequired, input } });
      }
    }
  }
  for (const [id, permissions] of Object.entries(catalog.snapshot.pagePermissions ?? {})) {
    if (!isObject(permissions) || !isObject(permissions.read)) continue;
    const page = catalog.pages.get(id);
    const resource: ResourceRef = page ? pageRef(page) : { type: 'page', identifier: id };
    sites.push({ resource, permission: 'read', locations: [joinPath('permissions', 'read')], rule: listsRule(permissions.read) });
  }
  return sites;
}
