/**
 * A small JSON Schema validator for the keywords our two shipped schemas use (draft-07 and
 * 2020-12 share them). A keyword it does not know is an error, never silently ignored, so a
 * schema cannot claim more than this checks.
 */
export type Schema = { [keyword: string]: unknown };

const ANNOTATIONS = new Set(['$schema', '$id', 'id', 'title', 'description', 'default', '$comment', 'examples', 'definitions', '$defs']);

export interface SchemaError {
  path: string;
  message: string;
}

export function validate(root: Schema, value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  check(root, root, value, '$', errors);
  return errors;
}

function check(root: Schema, schema: Schema | boolean, value: unknown, path: string, errors: SchemaError[]): void {
  if (schema === true) return;
  if (schema === false) {
    errors.push({ path, message: 'not allowed here' });
    return;
  }
  for (const [keyword, argument] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    const fail = (message: string) => errors.push({ path, message });
    switch (keyword) {
      case '$ref':
        check(root, resolve(root, argument as string), value, path, errors);
        break;
      case 'type': {
        const types = Array.isArray(argument) ? (argument as string[]) : [argument as string];
        if (!types.some((type) => hasType(value, type))) fail(`expected ${types.join(' or ')}, found ${typeOf(value)}`);
        break;
      }
      case 'enum':
        if (!(argument as unknown[]).some((option) => same(option, value))) fail(`expected one of ${JSON.stringify(argument)}, found ${JSON.stringify(value)}`);
        break;
      case 'const':
        if (!same(argument, value)) fail(`expected ${JSON.stringify(argument)}, found ${JSON.stringify(value)}`);
        break;
      case 'required':
        if (isPlainObject(value)) {
          for (const key of argument as string[]) if (!(key in value)) fail(`missing required property "${key}"`);
        }
        break;
      case 'properties':
        if (isPlainObject(value)) {
          for (const [key, sub] of Object.entries(argument as Record<string, Schema>)) {
            if (key in value) check(root, sub, value[key], `${path}.${key}`, errors);
          }
        }
        break;
      case 'additionalProperties':
        if (isPlainObject(value)) {
          const declared = new Set(Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}));
          for (const [key, item] of Object.entries(value)) {
            if (!declared.has(key)) check(root, argument as Schema | boolean, item, `${path}.${key}`, errors);
          }
        }
        break;
      case 'items':
        if (Array.isArray(value)) value.forEach((item, index) => check(root, argument as Schema, item, `${path}[${index}]`, errors));
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (argument as number)) fail(`expected at least ${String(argument)} items`);
        break;
      case 'uniqueItems':
        if (argument === true && Array.isArray(value)) {
          const seen = new Set(value.map(canonical));
          if (seen.size !== value.length) fail('items must be unique');
        }
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (argument as number)) fail(`expected >= ${String(argument)}, found ${value}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (argument as number)) fail(`expected <= ${String(argument)}, found ${value}`);
        break;
      case 'minLength':
        if (typeof value === 'string' && [...value].length < (argument as number)) fail(`expected at least ${String(argument)} characters`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(argument as string, 'u').test(value)) fail(`does not match ${String(argument)}`);
        break;
      case 'format':
        if (typeof value === 'string' && !FORMATS[argument as string]?.(value)) fail(`not a valid ${String(argument)}: ${JSON.stringify(value)}`);
        break;
      case 'anyOf':
        if (!(argument as Schema[]).some((sub) => validateAt(root, sub, value))) {
          fail(`matches none of anyOf ${JSON.stringify(argument)}`);
        }
        break;
      case 'oneOf': {
        const matches = (argument as Schema[]).filter((sub) => validateAt(root, sub, value)).length;
        if (matches !== 1) fail(`matches ${matches} of oneOf, expected exactly 1`);
        break;
      }
      default:
        throw new Error(`json-schema.ts does not implement the keyword "${keyword}" (at ${path})`);
    }
  }
}

function validateAt(root: Schema, schema: Schema, value: unknown): boolean {
  const errors: SchemaError[] = [];
  check(root, schema, value, '$', errors);
  return errors.length === 0;
}

function resolve(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported, found ${ref}`);
  let target: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    target = isPlainObject(target) ? target[segment.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  if (!isPlainObject(target)) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

const FORMATS: Record<string, (value: string) => boolean> = {
  uri: (value) => URL.canParse(value),
  // A relative reference: no spaces or characters RFC 3986 never allows unescaped, and valid escapes.
  'uri-reference': (value) => /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/.test(value),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      throw new Error(`unknown type ${type}`);
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}
