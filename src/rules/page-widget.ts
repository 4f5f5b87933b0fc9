import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { keyedRecord, asString, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath, type Path } from '../catalog/location.js';
import { pageRef, removedRelationsFor } from '../catalog/resources.js';

interface Context {
  catalog: Catalog;
  judge: SiteJudge;
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
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const page of catalog.snapshot.pages ?? []) {
      const context: Context = { catalog, judge, resource: pageRef(page), findings };
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

/** Widget keys read by name; every other key is searched for queries and jq (`salvage`). */
const WIDGET_KEYS = new Set(['widgets', 'excludedFields', 'blueprintConfig', 'dataset']);
const CONFIG_KEYS = new Set(['filterSettings', 'sortSettings', 'groupSettings', 'propertiesSettings']);

/** What a blueprint's widgets and rules are judged against: its removed relations and its `$team` mirrors. */
interface Scope {
  removed: ReadonlySet<string>;
  teamProperties: ReadonlySet<string>;
  /** Whose entities a `$team` filter is matched against (issue 21). */
  blueprint?: string;
}

const scopeOf = (context: Context, blueprint: string | undefined): Scope => ({
  removed: removedRelationsFor(context.catalog, blueprint),
  teamProperties: context.judge.teamProperties(blueprint),
  ...(blueprint !== undefined && { blueprint }),
});

function checkWidget(widget: JsonObject, path: Path, blueprint: string | undefined, context: Context): void {
  const scope = scopeOf(context, blueprint);
  checkFieldList(widget.excludedFields, [...path, 'excludedFields'], scope.removed, context);
  const configs = isObject(widget.blueprintConfig) ? widget.blueprintConfig : keyedRecord();
  for (const [configBlueprint, config] of Object.entries(configs)) {
    if (!isObject(config)) continue;
    const base = [...path, 'blueprintConfig', configBlueprint];
    const configScope = scopeOf(context, configBlueprint);
    const configRemoved = configScope.removed;
    for (const [key, value] of Object.entries(config)) if (!CONFIG_KEYS.has(key)) salvage(value, [...base, key], configScope, context);
    const filterBy = isObject(config.filterSettings) ? config.filterSettings.filterBy : undefined;
    checkRules(filterBy, [...base, 'filterSettings', 'filterBy'], configScope, 'The table filter', context);
    const sortBy = isObject(config.sortSettings) ? config.sortSettings.sortBy : undefined;
    checkSort(sortBy, [...base, 'sortSettings', 'sortBy'], configRemoved, context);
    const groupBy = isObject(config.groupSettings) ? config.groupSettings.groupBy : undefined;
    checkFieldList(groupBy, [...base, 'groupSettings', 'groupBy'], configRemoved, context);
    const settings = isObject(config.propertiesSettings) ? config.propertiesSettings : keyedRecord();
    for (const key of ['hidden', 'shown', 'order']) {
      checkFieldList(settings[key], [...base, 'propertiesSettings', key], configRemoved, context);
    }
  }
  // An array dataset is the list of its rules (number charts); any other shape is searched.
  const dataset = widget.dataset;
  if (Array.isArray(dataset) || (isObject(dataset) && Array.isArray(dataset.rules))) checkRules(dataset, [...path, 'dataset'], scope, 'The widget dataset rule', context);
  else salvage(dataset, [...path, 'dataset'], scope, context);
  for (const [key, value] of Object.entries(widget)) if (!WIDGET_KEYS.has(key)) salvage(value, [...path, key], scope, context);
}

/**
 * A widget value of a shape this rule does not know (a chart's `filters` list, a future
 * setting): the search queries and `{jqQuery}` values inside are judged as the known ones are,
 * so a `$team` filter is not lost because it sits under an unfamiliar key.
 */
function salvage(node: JsonValue | undefined, path: Path, scope: Scope, context: Context): void {
  if (isObject(node) && Array.isArray(node.rules)) {
    checkRules(node, path, scope, 'The widget rule', context);
  } else if (isObject(node) && typeof node.jqQuery === 'string') {
    const finding = context.judge.expression({
      category: 'page-widget',
      resource: context.resource,
      location: joinPath(...path, 'jqQuery'),
      expression: node.jqQuery,
      subject: 'The widget jqQuery',
      removedRelations: scope.removed,
      teamProperties: scope.teamProperties,
      ...(scope.blueprint !== undefined && { blueprint: scope.blueprint }),
    });
    if (finding) context.findings.push(finding);
  } else if (Array.isArray(node)) {
    node.forEach((item, index) => salvage(item, [...path, index], scope, context));
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) salvage(value, [...path, key], scope, context);
  }
}

/** The removed relation a field entry names, plainly (`owning_team`) or as `relations.owning_team`. */
function removedRelationNamed(field: JsonValue, removed: ReadonlySet<string>): string | undefined {
  if (typeof field !== 'string') return undefined;
  const relation = field.startsWith(RELATIONS_PREFIX) ? field.slice(RELATIONS_PREFIX.length) : field;
  return removed.has(relation) ? relation : undefined;
}
const RELATIONS_PREFIX = 'relations.';

/** A list of field names: the removed relation is replaced by $team, which now holds its teams. */
function checkFieldList(list: JsonValue | undefined, path: Path, removed: ReadonlySet<string>, context: Context): void {
  if (!Array.isArray(list)) return;
  const named = [...new Set(list.map((field) => removedRelationNamed(field, removed)).filter((relation) => relation !== undefined))];
  if (named.length === 0) return;
  const rewritten = [...new Set(list.map((field) => (removedRelationNamed(field, removed) !== undefined ? '$team' : field)))];
  context.findings.push({
    category: 'page-widget',
    resource: context.resource,
    location: joinPath(...path),
    evidence: JSON.stringify(list),
    reason: `The widget names relation ${named.map((n) => `"${n}"`).join(', ')}, which the migration removes; its teams move to $team.`,
    suggestion: `Use $team in its place: ${JSON.stringify(rewritten)}.`,
    verdict: context.judge.verdict('removed-relation'),
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
      verdict: context.judge.verdict('removed-relation'),
      rewrite: JSON.stringify(rewritten),
    });
  });
}

function checkRules(query: JsonValue | undefined, path: Path, scope: Scope, subject: string, context: Context): void {
  // A `{{ }}` value runs for the viewer: the user is all it can read.
  const site = { category: 'page-widget' as const, resource: context.resource, subject, removedRelations: scope.removed, teamProperties: scope.teamProperties, sample: 'user-input' as const, ...(scope.blueprint !== undefined && { blueprint: scope.blueprint }) };
  context.findings.push(...context.judge.searchQuery(site, query, path));
}
