import type { Catalog } from '../catalog/catalog.js';
import { asString, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath, type Path } from './shared/location.js';
import { pageRef, removedRelationsFor } from './shared/resources.js';
import { searchRuleFinding } from './shared/search-rule-finding.js';
import { searchRules } from './shared/walk.js';

interface Context {
  catalog: Catalog;
  resource: ResourceRef;
  findings: FindingDraft[];
}

/**
 * Widgets (dashboard widgets nest theirs): `excludedFields`, `blueprintConfig` per blueprint
 * (filters, sort, group-by, hidden / shown / order) and `dataset` rules. A removed relation named
 * anywhere there points at nothing afterwards; a `$team` filter by title stops matching.
 */
export const pageWidget: Rule = {
  category: 'page-widget',
  check(catalog: Catalog): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const page of catalog.snapshot.pages ?? []) {
      const context: Context = { catalog, resource: pageRef(page), findings };
      walkWidgets(page.widgets, ['widgets'], asString(page.blueprint), context, 0);
    }
    return findings;
  },
};

/** Dashboards nest widgets; the depth bound keeps a malformed page from recursing forever. */
const MAX_NESTING = 20;

function walkWidgets(widgets: JsonValue | undefined, base: Path, pageBlueprint: string | undefined, context: Context, depth: number): void {
  if (!Array.isArray(widgets) || depth > MAX_NESTING) return;
  widgets.forEach((widget, index) => {
    if (!isObject(widget)) return;
    const path = [...base, index];
    const blueprint = asString(widget.blueprint) ?? pageBlueprint;
    checkWidget(widget, path, blueprint, context);
    walkWidgets(widget.widgets, [...path, 'widgets'], blueprint, context, depth + 1);
  });
}

function checkWidget(widget: JsonObject, path: Path, blueprint: string | undefined, context: Context): void {
  const removed = removedRelationsFor(context.catalog, blueprint);
  checkFieldList(widget.excludedFields, [...path, 'excludedFields'], removed, context);
  const configs = isObject(widget.blueprintConfig) ? widget.blueprintConfig : {};
  for (const [configBlueprint, config] of Object.entries(configs)) {
    if (!isObject(config)) continue;
    const base = [...path, 'blueprintConfig', configBlueprint];
    const configRemoved = removedRelationsFor(context.catalog, configBlueprint);
    const filterBy = isObject(config.filterSettings) ? config.filterSettings.filterBy : undefined;
    checkRules(filterBy, [...base, 'filterSettings', 'filterBy'], configRemoved, 'The table filter', context);
    const sortBy = isObject(config.sortSettings) ? config.sortSettings.sortBy : undefined;
    checkSort(sortBy, [...base, 'sortSettings', 'sortBy'], configRemoved, context);
    const groupBy = isObject(config.groupSettings) ? config.groupSettings.groupBy : undefined;
    checkFieldList(groupBy, [...base, 'groupSettings', 'groupBy'], configRemoved, context);
    const settings = isObject(config.propertiesSettings) ? config.propertiesSettings : {};
    for (const key of ['hidden', 'shown', 'order']) {
      checkFieldList(settings[key], [...base, 'propertiesSettings', key], configRemoved, context);
    }
  }
  checkRules(widget.dataset, [...path, 'dataset'], removed, 'The widget dataset rule', context);
}

/** A list of field names: the removed relation is replaced by $team, which now holds its teams. */
function checkFieldList(list: JsonValue | undefined, path: Path, removed: ReadonlySet<string>, context: Context): void {
  if (!Array.isArray(list)) return;
  const named = list.filter((field): field is string => typeof field === 'string' && removed.has(field));
  if (named.length === 0) return;
  const rewritten = [...new Set(list.map((field) => (typeof field === 'string' && removed.has(field) ? '$team' : field)))];
  context.findings.push({
    category: 'page-widget',
    resource: context.resource,
    location: joinPath(...path),
    evidence: JSON.stringify(list),
    reason: `The widget names relation ${named.map((n) => `"${n}"`).join(', ')}, which the migration removes; its teams move to $team.`,
    suggestion: `Use $team in its place: ${JSON.stringify(rewritten)}.`,
    verdict: 'breaks',
    rewrite: JSON.stringify(rewritten),
  });
}

function checkSort(sortBy: JsonValue | undefined, path: Path, removed: ReadonlySet<string>, context: Context): void {
  if (!Array.isArray(sortBy)) return;
  sortBy.forEach((sort, index) => {
    if (!isObject(sort) || typeof sort.property !== 'string' || !removed.has(sort.property)) return;
    const rewritten = { ...sort, property: '$team' };
    context.findings.push({
      category: 'page-widget',
      resource: context.resource,
      location: joinPath(...path, index),
      evidence: JSON.stringify(sort),
      reason: `The table sorts by relation "${sort.property}", which the migration removes; its teams move to $team.`,
      suggestion: `Sort by $team instead: ${JSON.stringify(rewritten)}.`,
      verdict: 'breaks',
      rewrite: JSON.stringify(rewritten),
    });
  });
}

function checkRules(query: JsonValue | undefined, path: Path, removed: ReadonlySet<string>, subject: string, context: Context): void {
  for (const { path: rulePath, rule } of searchRules(query, path)) {
    const finding = searchRuleFinding(context.catalog, {
      category: 'page-widget',
      resource: context.resource,
      path: rulePath,
      rule,
      subject,
      removedRelations: removed,
    });
    if (finding) context.findings.push(finding);
  }
}
