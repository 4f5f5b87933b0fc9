import type { Catalog } from './catalog.js';
import { asString, isObject, type JsonObject } from '../model/json.js';
import type { ResourceRef } from '../model/finding.js';

function ref(type: ResourceRef['type'], record: JsonObject, fallbackId: string): ResourceRef {
  const identifier = asString(record.identifier) ?? fallbackId;
  const title = asString(record.title);
  return title !== undefined ? { type, identifier, title } : { type, identifier };
}

export const blueprintRef = (blueprint: JsonObject) => ref('blueprint', blueprint, '(unnamed blueprint)');
export const pageRef = (page: JsonObject) => ref('page', page, '(unnamed page)');
export const webhookRef = (webhook: JsonObject) => ref('webhook', webhook, '(unnamed webhook)');

export function integrationRef(integration: JsonObject): ResourceRef {
  const identifier = asString(integration.installationId) ?? asString(integration.identifier) ?? '(unnamed integration)';
  const title = asString(integration.title) ?? asString(integration.integrationType);
  return title !== undefined ? { type: 'integration', identifier, title } : { type: 'integration', identifier };
}

/** Automations and self-service actions share one endpoint; the trigger tells them apart. */
export function isAutomation(action: JsonObject): boolean {
  return isObject(action.trigger) && action.trigger.type === 'automation';
}

export function actionRef(action: JsonObject): ResourceRef {
  return ref(isAutomation(action) ? 'automation' : 'action', action, '(unnamed action)');
}

/** Whether the action creates its entity (v2 `trigger.operation`, v1 `trigger` itself): its form and run have none yet. */
export function createsEntity(action: JsonObject): boolean {
  return (isObject(action.trigger) ? action.trigger.operation : action.trigger) === 'CREATE';
}

/** The blueprint an action runs on, wherever its shape keeps it. */
export function actionBlueprint(action: JsonObject): string | undefined {
  const trigger = isObject(action.trigger) ? action.trigger : undefined;
  const event = trigger && isObject(trigger.event) ? trigger.event : undefined;
  return asString(trigger?.blueprintIdentifier) ?? asString(event?.blueprintIdentifier) ?? asString(action.blueprint);
}

/** Relations removed for one blueprint, or for every blueprint when the resource names none. */
export function removedRelationsFor(catalog: Catalog, blueprint: string | undefined): ReadonlySet<string> {
  if (blueprint === undefined) return catalog.allRemovedRelations;
  return catalog.removedRelations.get(blueprint) ?? new Set();
}

const keptTeamRelationsOf = new WeakMap<Catalog, ReadonlySet<string>>();

/**
 * Relations to `_team` the migration keeps, by name, over every blueprint: they hold `_team`
 * identifiers before the migration and after it, so reading one reads team values (issue 39).
 */
export function keptTeamRelations(catalog: Catalog): ReadonlySet<string> {
  let names = keptTeamRelationsOf.get(catalog);
  if (names === undefined) {
    const found = new Set<string>();
    for (const [id, blueprint] of catalog.blueprints) {
      if (!isObject(blueprint.relations)) continue;
      for (const [name, relation] of Object.entries(blueprint.relations)) {
        if (isObject(relation) && relation.target === '_team' && !catalog.removedRelations.get(id)?.has(name) && !catalog.allRemovedRelations.has(name)) found.add(name);
      }
    }
    keptTeamRelationsOf.set(catalog, (names = found));
  }
  return names;
}

/**
 * Properties of a blueprint whose values are team values (mirror properties through `$team`):
 * reading them is reading teams. With no blueprint named, every blueprint's, as for removed relations.
 */
export function teamPropertiesFor(catalog: Catalog, blueprint: string | undefined): ReadonlySet<string> {
  if (blueprint !== undefined) return catalog.teamMirrors.get(blueprint) ?? NO_PROPERTIES;
  return new Set([...catalog.teamMirrors.values()].flatMap((ids) => [...ids]));
}

const NO_PROPERTIES: ReadonlySet<string> = new Set();
