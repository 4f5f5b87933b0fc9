import { isObject, type JsonValue } from '../../model/json.js';

import type { Path } from './location.js';

export type { Path };

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

/** Search-query rules `{property, operator, value}` below a query, nested groups included. */
export function* searchRules(query: JsonValue | undefined, path: Path): Generator<{ path: Path; rule: Record<string, JsonValue | undefined> }> {
  if (!isObject(query) || !Array.isArray(query.rules)) return;
  for (const [index, rule] of query.rules.entries()) {
    if (!isObject(rule)) continue;
    const rulePath = [...path, 'rules', index];
    if (Array.isArray(rule.rules)) yield* searchRules(rule, rulePath);
    else yield { path: rulePath, rule };
  }
}
