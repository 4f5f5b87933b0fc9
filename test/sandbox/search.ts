/**
 * Entity search as the sandbox understands it: the contract's rule shape
 * `{combinator, rules: [{property, operator, value}]}`, nested queries allowed.
 */
type Json = unknown;
type Entity = Record<string, Json>;

export class SearchError extends Error {
  override name = 'SearchError';
}

/** Ours: deeper nesting is not a real query; the bound keeps a hostile body from recursing forever. */
const MAX_DEPTH = 8;

function valueOf(entity: Entity, blueprint: string, property: string): Json {
  switch (property) {
    case '$team':
      return entity.team;
    case '$identifier':
      return entity.identifier;
    case '$title':
      return entity.title;
    case '$blueprint':
      return blueprint;
  }
  const relations = entity.relations as Record<string, Json> | undefined;
  if (relations && typeof relations === 'object' && property in relations) return relations[property];
  const properties = entity.properties as Record<string, Json> | undefined;
  return properties && typeof properties === 'object' ? properties[property] : undefined;
}

const isEmpty = (value: Json) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Scalars and arrays alike: an array matches when any element does (as `$team` lists behave). */
const values = (value: Json): Json[] => (Array.isArray(value) ? value : isEmpty(value) ? [] : [value]);

function matchRule(entity: Entity, blueprint: string, rule: Record<string, Json>, depth: number): boolean {
  if (Array.isArray(rule.rules)) return matchQuery(entity, blueprint, rule, depth + 1);
  const property = rule.property;
  const operator = rule.operator;
  if (typeof property !== 'string' || typeof operator !== 'string') throw new SearchError('a rule needs "property" and "operator"');
  const actual = valueOf(entity, blueprint, property);
  const expected = rule.value;
  switch (operator) {
    case '=':
      return values(actual).some((v) => v === expected);
    case '!=':
      return !values(actual).some((v) => v === expected);
    case 'in':
      if (!Array.isArray(expected)) throw new SearchError('"in" needs an array value');
      return values(actual).some((v) => expected.includes(v));
    case 'notIn':
      if (!Array.isArray(expected)) throw new SearchError('"notIn" needs an array value');
      return !values(actual).some((v) => expected.includes(v));
    case 'contains':
      return values(actual).some((v) => typeof v === 'string' && typeof expected === 'string' && v.includes(expected));
    case 'containsAny':
      if (!Array.isArray(expected)) throw new SearchError('"containsAny" needs an array value');
      return values(actual).some((v) => typeof v === 'string' && expected.some((e) => typeof e === 'string' && v.includes(e)));
    case 'isEmpty':
      return isEmpty(actual);
    case 'isNotEmpty':
      return !isEmpty(actual);
    default:
      throw new SearchError(`operator "${operator}" is not supported by the sandbox`);
  }
}

export function matchQuery(entity: Entity, blueprint: string, query: Record<string, Json> | undefined, depth = 0): boolean {
  if (!query) return true;
  if (depth > MAX_DEPTH) throw new SearchError('the query is nested too deeply');
  const rules = query.rules;
  if (rules === undefined) return true;
  if (!Array.isArray(rules)) throw new SearchError('"rules" must be an array');
  const combinator = query.combinator ?? 'and';
  if (combinator !== 'and' && combinator !== 'or') throw new SearchError('"combinator" must be "and" or "or"');
  if (rules.length === 0) return true;
  const results = rules.map((rule) => matchRule(entity, blueprint, rule as Record<string, Json>, depth));
  return combinator === 'and' ? results.every(Boolean) : results.some(Boolean);
}
