import { describe, expect, it } from 'vitest';
import { copyJson, dropPrototypes, jsonRoundTrip } from '../../src/model/json.js';

/** Two graphs alike: shape, prototypes, own keys in order, primitives (Object.is), and which objects are shared. */
function alike(a: unknown, b: unknown): boolean {
  const pairs = new Map<object, unknown>();
  const back = new Map<object, unknown>();
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (pairs.has(x) || back.has(y)) {
      if (pairs.get(x) !== y || back.get(y) !== x) return false;
      continue;
    }
    pairs.set(x, y);
    back.set(y, x);
    const keys = Reflect.ownKeys(x).map(String);
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y) || keys.join('\0') !== Reflect.ownKeys(y).map(String).join('\0')) return false;
    for (const key of keys) stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
  }
  return true;
}

const shared = { s: 1 };
const cyclic: Record<string, unknown> = { name: 'c' };
cyclic.self = cyclic;
const deep = (depth: number) => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { b: value, a: level };
  return value;
};
const CASES: [string, unknown][] = [
  ['plain data in key order', { b: 1, a: [true, null, 'x', { c: 2.5 }], 10: 'ten', 2: 'two' }],
  ['objects without a prototype', dropPrototypes({ a: { b: [{ c: 1 }] } })],
  ['a __proto__ key', JSON.parse('{"__proto__": {"z": 1}, "a": 1}')],
  ['an undefined value', { a: undefined, b: 1 }],
  ['undefined in a list', { a: [1, undefined] }],
  ['-0', { b: -0 }],
  ['NaN and Infinity', { c: NaN, d: [Infinity] }],
  ['a hole', { a: [1, , 3] }],
  ['an array with another key', { b: Object.assign([1], { extra: 2 }) }],
  ['an object of a class', { when: new Date(0), map: new Map([[1, 2]]) }],
  ['an object met twice', { a: shared, b: [shared] }],
  ['a cycle', { cyclic }],
  ['nesting deeper than the direct copy goes', deep(1500)],
];

describe('the direct copies give what the copies they replace give', () => {
  it.each(CASES)('copyJson, %s', (_, value) => {
    expect(alike(copyJson(value), dropPrototypes(structuredClone(value)))).toBe(true);
  });

  it.each(CASES.filter(([name]) => name !== 'a cycle'))('jsonRoundTrip, %s', (_, value) => {
    expect(alike(jsonRoundTrip(value), JSON.parse(JSON.stringify(value)))).toBe(true);
  });

  it('jsonRoundTrip refuses a cycle as the round trip does', () => {
    expect(() => jsonRoundTrip({ cyclic })).toThrow(TypeError);
  });
});
