import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reportRun } from '../../src/report/run-info.js';

/** The run id's definition, written plainly: each document's JSON with keys sorted, then a line end. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${Array.from(value, (item) => canonical(item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return `${JSON.stringify(value ?? null)}`;
}
const expectedId = (read: unknown[]) => createHash('sha256').update(read.map((document) => `${canonical(document)}\n`).join('')).digest('hex').slice(0, 16);

function nested(depth: number): unknown {
  let value: unknown = { leaf: 'x' };
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value, 1] : { b: value, a: level };
  return value;
}

describe('reportRun', () => {
  it.each([
    ['keys in another order', { b: 1, a: { d: [1, 'x'], c: null } }],
    ['keys that are array indexes, which objects list first', { b: 1, 10: 'ten', 2: 'two', A: true }],
    ['a __proto__ key and keys of Object.prototype', JSON.parse('{"__proto__": {"z": 1}, "constructor": "c", "toString": 2}')],
    ['undefined values, holes and numbers JSON writes as null', { a: undefined, b: [1, , undefined, NaN, -0, Infinity], c: 'é\u2028' }],
    ['objects of a class, a function and a symbol', { when: new Date(0), map: new Map([[1, 2]]), f: () => 1, s: Symbol('s') }],
    ['nesting deeper than the fast copy goes', nested(1200)],
    // Written piece by piece (the top levels, lists past 256 items), each entity copied on its own.
    [
      'a snapshot of many entities, some holding keys the copy leaves to the slow path',
      {
        format: 'org-snapshot/1',
        entities: {
          b: Array.from({ length: 300 }, (_, i) => ({ identifier: `e${i}`, team: [`t${i % 7}`], ...(i % 50 === 0 && { properties: JSON.parse(`{"9": ${i}, "__proto__": {"x": 1}, "a": [1, null]}`) }) })),
          a: Array.from({ length: 3 }, (_, i) => ({ z: i, y: undefined })),
        },
        list: Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? { n: i, m: [i] } : i)),
      },
    ],
  ])('gives the id of its definition for %s', (_, document) => {
    const read = [document, { teams: ['a'] }, null, undefined];
    expect(reportRun(read).id).toBe(expectedId(read));
  });

  it('gives one id whatever the key order, another for other data', () => {
    expect(reportRun([{ a: 1, b: [{ c: 1, d: 2 }] }]).id).toBe(reportRun([{ b: [{ d: 2, c: 1 }], a: 1 }]).id);
    expect(reportRun([{ a: 1 }]).id).not.toBe(reportRun([{ a: 2 }]).id);
  });
});
