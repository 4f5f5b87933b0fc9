import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonObjectInPieces } from '../../src/read-json-in-pieces.js';

const dir = mkdtempSync(join(tmpdir(), 'tma-pieces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function fileOf(content: string | Buffer): string {
  const path = join(dir, `f${files++}.json`);
  writeFileSync(path, content);
  return path;
}

/** Every way of cutting the text: tiny chunks (a character split between two), tiny batches, and the defaults. */
const CUTS = [
  { chunkBytes: 4, batchChars: 1 },
  { chunkBytes: 5, batchChars: 3 },
  { chunkBytes: 7, batchChars: 1 << 20 },
  { chunkBytes: 64, batchChars: 16 },
  {},
];
const SPLIT = new Set(['entities']);

/** The value and its key order, own `__proto__` keys included, as one text to compare. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) === Object.prototype ? '' : '(other prototype)';
    return `${prototype}{${Object.keys(value).map((key) => `${JSON.stringify(key)}:${shapeOf((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}

const VALID = [
  '{}',
  ' \n{ } \n',
  '\uFEFF{"format":"org-snapshot/1"}',
  '{"a":1,"b":[1,2,3],"c":{"x":[{"y":"}]\\"\\\\"}],"z":null},"d":true,"e":-1.5e3,"f":"é ✓ 𝄞 \\u00e9"}',
  '{"entities":{"svc":[{"identifier":"a","team":["x","y"]},{"identifier":"b","relations":{"r":["a"]}}],"empty":[],"odd":"text","obj":{"k":{"__proto__":1}}},"after":[]}',
  '{"__proto__":{"polluted":true},"a":{"__proto__":[1]},"entities":{"__proto__":[{"__proto__":2}]}}',
  '{"a":1,"a":2,"b":{"k":1,"k":[3]},"entities":{"x":[1],"x":[2,3]}}',
  '{"0":"zero","10":"ten","2":"two","z":{"1":1,"0":0}}',
  '{"list":[[[[[[1]]]]],{"deep":{"deeper":{"deepest":[{}]}}}],"entities":{"b":[[[]],{},"s",1,null]}}',
  '{ "spaced" :\t[ 1 ,\r\n 2 ] , "entities" : { "b" : [ { "identifier" : "x" } , { } ] } }',
];

describe('readJsonObjectInPieces (issue 41: a snapshot never held whole as one string)', () => {
  for (const text of VALID) {
    it(`gives what JSON.parse gives: ${text.slice(0, 60)}`, () => {
      const expected = shapeOf(JSON.parse(text.replace(/^\uFEFF/, '')));
      for (const cut of CUTS) {
        const seen = createHash('sha256');
        const read = readJsonObjectInPieces(fileOf(text), (bytes) => seen.update(bytes), { ...cut, splitMembers: SPLIT });
        expect(read, JSON.stringify(cut)).toBeDefined();
        expect(shapeOf(read!.document), JSON.stringify(cut)).toBe(expected);
        // Every byte is seen once, in order, BOM and all: the run id's digest.
        expect(seen.digest('hex')).toBe(createHash('sha256').update(Buffer.from(text)).digest('hex'));
      }
    });
  }

  it('reads every JSON fixture of the project as JSON.parse does', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const paths = ['fixtures', 'test/fixtures'].flatMap((folder) => readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json')).map((name) => join(root, folder, name)));
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
      for (const cut of [{ chunkBytes: 97, batchChars: 50 }, {}]) {
        const read = readJsonObjectInPieces(path, () => undefined, { ...cut, splitMembers: SPLIT });
        expect(read && shapeOf(read.document), path).toBe(object ? shapeOf(parsed) : undefined);
      }
    }
  });

  it('keeps `__proto__` an own key and lends no object a prototype it did not have', () => {
    const read = readJsonObjectInPieces(fileOf('{"__proto__":{"polluted":true},"entities":{"__proto__":[1]}}'), () => undefined, { splitMembers: SPLIT, batchChars: 1 });
    expect(Object.hasOwn(read!.document, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(read!.document)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(read!.document.entities as object, '__proto__')).toBe(true);
  });

  it('hands each batch below a split member to onBatch before it joins its container, and no other', () => {
    const seen: string[] = [];
    const text = '{"blueprints":[{"a":1}],"entities":{"svc":[{"i":1},{"i":2},{"i":3}],"map":{"k":{"i":4}},"empty":[]}}';
    const read = readJsonObjectInPieces(fileOf(text), () => undefined, {
      splitMembers: SPLIT,
      batchChars: 1,
      onBatch: (member, batch) => {
        seen.push(`${member}:${JSON.stringify(batch)}`);
        for (const item of Object.values(batch)) (item as Record<string, unknown>).seen = true;
      },
    });
    expect(seen).toEqual(['entities:[{"i":1}]', 'entities:[{"i":2}]', 'entities:[{"i":3}]', 'entities:{"k":{"i":4}}', 'entities:[]']);
    expect(JSON.stringify(read!.document)).toBe(text.replace(/"i":(\d)/g, '"i":$1,"seen":true'));
  });

  it('hands each batch of a top-level member that is not split to onMemberBatch, and what it returns joins the member', () => {
    const seen: string[] = [];
    const text = '{"format":"f","blueprints":[{"a":1},{"a":2}],"map":{"k":{"i":1},"l":{"i":2}},"deep":[[{"x":[1]}]],"empty":{},"entities":{"svc":[{"i":3}]}}';
    const read = readJsonObjectInPieces(fileOf(text), () => undefined, {
      splitMembers: SPLIT,
      batchChars: 1,
      onMemberBatch: (member, batch, first, depthSoFar) => {
        seen.push(`${member}:${JSON.stringify(batch)}:${first ? 'first' : 'next'}:${depthSoFar}`);
        return Array.isArray(batch) ? batch.map(() => member) : Object.fromEntries(Object.keys(batch).map((key) => [key, member]));
      },
    });
    expect(seen).toEqual([
      'blueprints:[{"a":1}]:first:3',
      'blueprints:[{"a":2}]:next:3',
      'map:{"k":{"i":1}}:first:3',
      'map:{"l":{"i":2}}:next:3',
      'deep:[[{"x":[1]}]]:first:5',
      'empty:{}:first:5',
    ]);
    expect(JSON.stringify(read!.document)).toBe('{"format":"f","blueprints":["blueprints","blueprints"],"map":{"k":"map","l":"map"},"deep":["deep"],"empty":{},"entities":{"svc":[{"i":3}]}}');
  });

  it('says how deep the text nests', () => {
    expect(readJsonObjectInPieces(fileOf('{}'), () => undefined)!.depth).toBe(1);
    expect(readJsonObjectInPieces(fileOf('{"a":[{"b":[]}],"c":"[[[["}'), () => undefined, { batchChars: 1 })!.depth).toBe(4);
    expect(readJsonObjectInPieces(fileOf('{"entities":{"b":[{"r":{"x":[1]}}]}}'), () => undefined, { splitMembers: SPLIT })!.depth).toBe(6);
  });

  const INVALID = [
    '',
    '   ',
    '{',
    '{"a":1',
    '{"a":1,}',
    '{"a":[1,2,]}',
    '{"a":[1,,2]}',
    '{"entities":{"b":[1,]}}',
    '{"entities":{"b":[1,2],}}',
    '{"a" 1}',
    '{"a":1 "b":2}',
    '{a:1}',
    "{'a':1}",
    '{"a":[1}',
    '{"a":{"b":1]}',
    '{"a":01}',
    '{"a":"line\nbreak"}',
    '{"a":1}{"b":2}',
    '{"a":1} x',
    '{"a":NaN}',
    '{"a":[1,2]]}',
    '<!doctype html><html></html>',
  ];
  for (const text of INVALID) {
    it(`refuses what JSON.parse refuses: ${JSON.stringify(text)}`, () => {
      expect(() => JSON.parse(text)).toThrow();
      for (const cut of CUTS) expect(readJsonObjectInPieces(fileOf(text), () => undefined, { ...cut, splitMembers: SPLIT }), JSON.stringify(cut)).toBeUndefined();
    });
  }

  it('leaves to the ordinary read a file with one item bigger than it holds at once (copied and scanned again per chunk, it would cost its size squared)', () => {
    const big = `{"entities":{"b":[{"i":1},{"text":"${'x'.repeat(5_000)}"},{"i":2}]},"after":"${'y'.repeat(5_000)}"}`;
    const small = { chunkBytes: 64, batchChars: 16, splitMembers: SPLIT };
    expect(readJsonObjectInPieces(fileOf(big), () => undefined, { ...small, maxWindowChars: 1_000 })).toBeUndefined();
    expect(shapeOf(readJsonObjectInPieces(fileOf(big), () => undefined, { ...small, maxWindowChars: 10_000 })!.document)).toBe(shapeOf(JSON.parse(big)));
    // A long list of small items is no big item: it never holds more than a batch and a chunk.
    const long = `{"entities":{"b":[${Array.from({ length: 2_000 }, (_, i) => `{"i":${i}}`).join(',')}]}}`;
    expect(shapeOf(readJsonObjectInPieces(fileOf(long), () => undefined, { ...small, maxWindowChars: 1_000 })!.document)).toBe(shapeOf(JSON.parse(long)));
  });

  it('leaves to the ordinary read JSON whose top level is no object', () => {
    for (const text of ['[]', '"text"', '1', 'null', '[{"a":1}]']) expect(readJsonObjectInPieces(fileOf(text), () => undefined)).toBeUndefined();
  });

  it('leaves to the ordinary read a file that is no UTF-8, nests past the input limit, or is no file', () => {
    expect(readJsonObjectInPieces(fileOf(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), () => undefined)).toBeUndefined();
    expect(readJsonObjectInPieces(fileOf(`{"a":${'['.repeat(10_001)}${']'.repeat(10_001)}}`), () => undefined)).toBeUndefined();
    expect(readJsonObjectInPieces(fileOf(`{"a":${'['.repeat(9_999)}${']'.repeat(9_999)}}`), () => undefined)!.depth).toBe(10_000);
    expect(readJsonObjectInPieces(join(dir, 'missing.json'), () => undefined)).toBeUndefined();
    expect(readJsonObjectInPieces(dir, () => undefined)).toBeUndefined();
  });

  it('agrees with JSON.parse on random documents and on every one-character change of them', () => {
    // A fixed seed: the same documents every run.
    let seed = 41;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const KEYS = ['a', 'entities', '__proto__', '0', 'k"q', 'é', 'x y'];
    const value = (depth: number): unknown => {
      const kind = depth > 4 ? 0 : Math.floor(random() * 4);
      if (kind === 0) return pick(['s', 'with "quote" and \\ slash', '[{', 1, -2.5, true, null, 'ü 𝄞']);
      if (kind === 1) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(KEYS), value(depth + 1)]));
    };
    const CHANGES = [',', ']', '}', '[', '{', '"', ':', ' ', '1', '\\'];
    for (let n = 0; n < 100; n++) {
      const document = Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(KEYS), value(1)]));
      const text = JSON.stringify(document, null, random() < 0.5 ? undefined : 1);
      const variants = [text];
      for (let k = 0; k < 8; k++) {
        const at = Math.floor(random() * text.length);
        variants.push(random() < 0.5 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + pick(CHANGES) + text.slice(at));
      }
      // As the file holds it: a surrogate cut in half is written as U+FFFD.
      for (const variant of variants.map((text) => Buffer.from(text).toString('utf8'))) {
        let expected: string | undefined;
        try {
          const parsed: unknown = JSON.parse(variant);
          expected = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? shapeOf(parsed) : undefined;
        } catch {
          expected = undefined;
        }
        for (const cut of CUTS.slice(0, 2)) {
          const read = readJsonObjectInPieces(fileOf(variant), () => undefined, { ...cut, splitMembers: SPLIT });
          expect(read && shapeOf(read.document), JSON.stringify(variant)).toBe(expected);
        }
      }
    }
  });
});
