import { describe, expect, it } from 'vitest';
import { validate, type Schema } from './json-schema.js';

/** The validator must be able to say no, or every schema test built on it proves nothing. */
describe('json-schema validator', () => {
  const root: Schema = {
    type: 'object',
    required: ['id', 'kind'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[0-9a-f]{4}$' },
      kind: { enum: ['a', 'b'] },
      count: { type: 'integer', minimum: 0 },
      tags: { type: 'array', uniqueItems: true, items: { type: 'string' } },
      where: { $ref: '#/definitions/where' },
      uri: { type: 'string', format: 'uri-reference' },
    },
    definitions: { where: { type: 'object', anyOf: [{ required: ['line'] }, { required: ['offset'] }] } },
  };

  it('accepts a valid document', () => {
    expect(validate(root, { id: 'ab12', kind: 'a', count: 2, tags: ['x', 'y'], where: { line: 1 }, uri: 'a/b%20c.tf' })).toEqual([]);
  });

  const bad: [string, unknown, string][] = [
    ['a missing required property', { id: 'ab12' }, 'missing required property "kind"'],
    ['an undeclared property', { id: 'ab12', kind: 'a', extra: 1 }, 'not allowed here'],
    ['a value outside the enum', { id: 'ab12', kind: 'c' }, 'expected one of'],
    ['a pattern mismatch', { id: 'xyz', kind: 'a' }, 'does not match'],
    ['a non-integer', { id: 'ab12', kind: 'a', count: 1.5 }, 'expected integer'],
    ['a number under the minimum', { id: 'ab12', kind: 'a', count: -1 }, 'expected >= 0'],
    ['duplicate items', { id: 'ab12', kind: 'a', tags: ['x', 'x'] }, 'unique'],
    ['a $ref target failing anyOf', { id: 'ab12', kind: 'a', where: { column: 1 } }, 'anyOf'],
    ['a space in a uri-reference', { id: 'ab12', kind: 'a', uri: 'a b.tf' }, 'not a valid uri-reference'],
  ];
  it.each(bad)('rejects %s', (_name, document, message) => {
    const errors = validate(root, document);
    expect(errors.map((e) => e.message).join('; ')).toContain(message);
  });

  it('refuses a keyword it does not implement instead of ignoring it', () => {
    expect(() => validate({ type: 'object', patternProperties: {} }, {})).toThrow(/does not implement the keyword "patternProperties"/);
  });
});
