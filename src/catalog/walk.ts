import { isObject, type JsonValue } from '../model/json.js';

import type { Path } from './location.js';

/** Every `{jqQuery: "<jq>"}` below `node`, with its path (ending in "jqQuery"). */
export function* jqQueries(node: JsonValue | undefined, path: Path): Generator<{ path: Path; expression: string }> {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* jqQueries(item, [...path, index]);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'jqQuery' && typeof value === 'string') yield { path: [...path, key], expression: value };
      else yield* jqQueries(value, [...path, key]);
    }
  }
}

/** Every string below `node` with its path; used for template-bearing invocation payloads. */
export function* strings(node: JsonValue | undefined, path: Path): Generator<{ path: Path; value: string }> {
  if (typeof node === 'string') yield { path, value: node };
  else if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* strings(item, [...path, index]);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) yield* strings(value, [...path, key]);
  }
}

/**
 * The jq inside `{{ … }}` templates of a string (webhook URLs, bodies, headers). jq itself may
 * contain `}}` only inside strings, which templates in practice never do; we stop at the first.
 */
export function templateExpressions(text: string): string[] {
  const expressions: string[] = [];
  const pattern = /\{\{([\s\S]*?)\}\}/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) expressions.push(match[1]!.trim());
  return expressions;
}

/**
 * Text jq could only read as an undefined function or a syntax error: in a mapping, a literal
 * value (`"Cluster"`, a team identifier), not code.
 */
export function isPlainText(value: string): boolean {
  return !/[.$"()[\]{}|]/.test(value);
}

/**
 * `text` with the jq of each `{{ … }}` template replaced by `replace(expression)` (trimmed, as
 * `templateExpressions` yields it); undefined keeps the template. Text outside templates is
 * never touched, even when it spells the same expression.
 */
export function replaceTemplateExpressions(text: string, replace: (expression: string) => string | undefined): string {
  return text.replace(/\{\{([\s\S]*?)\}\}/g, (template: string, inner: string) => {
    const expression = inner.trim();
    const replacement = replace(expression);
    if (replacement === undefined) return template;
    const at = template.indexOf(expression, 2);
    return template.slice(0, at) + replacement + template.slice(at + expression.length);
  });
}

type SearchRule = Record<string, JsonValue | undefined>;

/**
 * Search-query rules `{property, operator, value}` below a query, nested groups included. A
 * list is the rules themselves (a number chart's `dataset` is written that way). Scorecards
 * write the same shape under `conditions` instead of `rules`.
 */
export function* searchRules(query: JsonValue | undefined, path: Path, listKey: 'rules' | 'conditions' = 'rules'): Generator<{ path: Path; rule: SearchRule }> {
  const list = isObject(query) ? query[listKey] : undefined;
  const [rules, base] = Array.isArray(query) ? [query, path] : Array.isArray(list) ? [list, [...path, listKey]] : [[], path];
  for (const [index, rule] of rules.entries()) {
    if (!isObject(rule)) continue;
    const rulePath = [...base, index];
    if (Array.isArray(rule[listKey])) yield* searchRules(rule, rulePath, listKey);
    else yield { path: rulePath, rule };
  }
}

/**
 * The search queries (objects holding a `rules` list) at any depth below `node`, for values of
 * a shape the rules do not know: what they hold is still judged. Nested groups belong to their
 * query and are not yielded again.
 */
export function* queriesBelow(node: JsonValue | undefined, path: Path): Generator<{ path: Path; query: JsonValue }> {
  if (isObject(node) && Array.isArray(node.rules)) yield { path, query: node };
  else if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* queriesBelow(item, [...path, index]);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) yield* queriesBelow(value, [...path, key]);
  }
}

/** A rule's property as relation hops: `"$team"` is `["$team"]`; a path rule `{path: [...]}` as written. */
export function propertyPath(rule: SearchRule): string[] | undefined {
  const property = rule.property;
  if (typeof property === 'string') return [property];
  if (!isObject(property) || !Array.isArray(property.path) || property.path.length === 0) return undefined;
  return property.path.every((hop): hop is string => typeof hop === 'string') ? property.path : undefined;
}

/** A rule comparing the team values themselves: `property: "$team"` or the path `["$team"]`. */
export function isTeamRule(rule: SearchRule): boolean {
  const path = propertyPath(rule);
  return path?.length === 1 && path[0] === '$team';
}
