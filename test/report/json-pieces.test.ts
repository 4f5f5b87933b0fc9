import { describe, expect, it } from 'vitest';
import { rewrittenRuns } from '../../src/output/rewritten-runs.js';
import { jsonPieces } from '../../src/report/json-pieces.js';

// Values JSON.stringify treats specially: left-out properties, nulls in arrays, empty containers at every
// depth, toJSON, non-finite numbers, line breaks and escapes inside strings, keys that are not identifiers.
const VALUES: unknown[] = [
  { a: 1, b: [1, undefined, () => 1, Symbol('s'), { c: [] }, {}], d: undefined, e: { f: { g: { h: [1, 2, { i: 'x\ny' }] } } }, 'k\n"': null, n: NaN, t: new Date(0) },
  { only: undefined },
  { findings: [{ id: '1', nested: { deep: [[], [{}], { x: '\u2028##[' }] } }, { id: '2' }], notes: [] },
  { x: { toJSON: () => ({ y: [1, 2] }) } },
  [[[[['deep']]]]],
  [],
  {},
  'text',
  7,
  null,
  true,
];

describe('jsonPieces', () => {
  it.each(VALUES.map((value, i) => [i, value] as const))('value %i joins into JSON.stringify, compact and indented', (_, value) => {
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value));
    expect([...jsonPieces(value, 2)].join('')).toBe(JSON.stringify(value, null, 2));
  });

  it('gives a big array one piece per element at least, each string whole in one piece', () => {
    const findings = Array.from({ length: 500 }, (_, i) => ({ id: String(i), message: `"quoted" ##[ ${'x'.repeat(i)}` }));
    const pieces = [...jsonPieces({ findings }, 2)];
    expect(pieces.length).toBeGreaterThan(500);
    // Every piece is whole JSON values or punctuation: its quotes, unescaped, are balanced.
    for (const piece of pieces) expect(piece.replace(/\\./g, '').split('"').length % 2).toBe(1);
  });
});

describe('rewrittenRuns', () => {
  it('rewrites runs of pieces, and the runs join into the rewritten whole when the rewrite acts within a piece', () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => `"${i}##["`);
    const escape = (text: string) => text.replaceAll('##[', '##\\u005b');
    const runs = [...rewrittenRuns(pieces, escape)];
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.join('')).toBe(escape(pieces.join('')));
  });
});
