import { isAutomation } from '../catalog/resources.js';
import { isObject, type JsonObject } from '../model/json.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { plural } from '../plural.js';

/**
 * Which permission endpoints can hold team entries, so the fetcher reads only those (issue 17).
 * From the service's public API and docs: execute/approve permissions are set on self-service
 * actions ("update the permissions of a self-service action"); an automation runs on an event, not
 * by a user, so it has none to hold a team. Page permissions control catalog and dashboard pages;
 * an entity page has none of its own: who sees it follows the blueprint's entity read permissions,
 * which are read with the blueprint's.
 */
export const isEntityPage = (page: JsonObject): boolean => page.type === 'entity';

export const idOf = (record: JsonObject): string | undefined => (typeof record.identifier === 'string' ? record.identifier : undefined);

/** Identifiers whose permissions are read: every record with an identifier that `skip` does not exclude (every blueprint). */
export function permissionTargets(records: readonly JsonObject[] | null | undefined, skip: (record: JsonObject) => boolean = () => false): string[] {
  return (records ?? []).filter((record) => !skip(record)).map(idOf).filter((id): id is string => id !== undefined);
}

/** report.notes lines saying what a live fetch did not read and why (docs/formats.md, the org snapshot: notes). */
export function skippedPermissionNotes(snapshot: OrgSnapshot): string[] {
  const notes: string[] = [];
  const automations = (snapshot.actions ?? []).filter((action) => isObject(action) && isAutomation(action)).length;
  const entityPages = (snapshot.pages ?? []).filter((page) => isObject(page) && isEntityPage(page)).length;
  if (automations > 0) {
    notes.push(`permissions of ${plural(automations, 'automation')} not read: only self-service actions carry execute/approve permissions; an automation runs on events, so no team entry of its own can change`);
  }
  if (entityPages > 0) {
    notes.push(`permissions of ${plural(entityPages, 'entity page')} not read: page permissions apply to catalog and dashboard pages; an entity page follows its blueprint's entity read permissions, which are read`);
  }
  return notes;
}
