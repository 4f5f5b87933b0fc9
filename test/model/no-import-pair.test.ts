/** src/model holds the types everything shares: no two of its files import each other, types included. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODEL = resolve('src/model');
const importsOf = (file: string) => [...readFileSync(join(MODEL, file), 'utf8').matchAll(/from '\.\/([^']+)\.js'/g)].map(([, name]) => `${name}.ts`);

describe('src/model', () => {
  it('has no pair of files that import each other', () => {
    const files = readdirSync(MODEL).filter((name) => name.endsWith('.ts'));
    const pairs = files.flatMap((file) => importsOf(file).filter((other) => other > file && files.includes(other) && importsOf(other).includes(file)).map((other) => `${file} <-> ${other}`));
    expect(pairs).toEqual([]);
  });
});
