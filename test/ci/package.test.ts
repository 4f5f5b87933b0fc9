import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let files: string[] = [];

beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
  // --ignore-scripts: the build above is what prepare would run.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as {
    files: { path: string }[];
  }[];
  files = (packed[0]?.files ?? []).map((f) => f.path);
}, 120_000);

describe('npm pack', () => {
  it('ships the CLI, its templates, schemas, README and LICENSE, and nothing from the tests or fixtures', () => {
    for (const path of ['dist/main.js', 'dist/cli.js', 'templates/report.hbs', 'templates/report.js', 'templates/report.css', 'schemas/report.schema.json', 'README.md', 'LICENSE', 'package.json']) {
      expect(files, path).toContain(path);
    }
    expect(files.filter((f) => /^(test|fixtures|src|bench|output|action)\//.test(f))).toEqual([]);
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string }).license;
    expect(license.startsWith(`${declared} License`)).toBe(true);
  });

  it('has no source map that points at a file missing from the package', () => {
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const document = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      document.sources.forEach((source, index) => {
        const embedded = typeof document.sourcesContent?.[index] === 'string';
        const shipped = files.includes(normalize(join(dirname(map), source)));
        expect(embedded || shipped, `${map} → ${source}`).toBe(true);
      });
      // The embedded text is the source the map was made from.
      const source = join(ROOT, dirname(map), document.sources[0] ?? '');
      if (existsSync(source)) expect(document.sourcesContent?.[0]).toBe(readFileSync(source, 'utf8'));
    }
  });
});
