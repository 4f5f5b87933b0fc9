import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsBuild, STAMP } from '../../scripts/build-if-changed.mjs';

/** A project folder with a source, a build and its stamp, each at the time given (seconds). */
function project(times: { source: number; stamp?: number }): string {
  const root = mkdtempSync(join(tmpdir(), 'tma-start-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'src', 'main.ts'), '');
  writeFileSync(join(root, 'dist', 'main.js'), '');
  utimesSync(join(root, 'src', 'main.ts'), times.source, times.source);
  if (times.stamp !== undefined) {
    writeFileSync(join(root, STAMP), '');
    utimesSync(join(root, STAMP), times.stamp, times.stamp);
  }
  return root;
}

/** Issue 42, Why 8: `npm start` compiled the whole project on every run (6–7 s for a 0.5 s analysis). */
describe('npm start builds only when a source changed', () => {
  it('skips the build when the last build is newer than every source', () => {
    expect(needsBuild(project({ source: 1_000, stamp: 2_000 }))).toBe(false);
  });

  it('builds when a source changed since, when there was no build, and when its output is gone', () => {
    expect(needsBuild(project({ source: 3_000, stamp: 2_000 }))).toBe(true);
    expect(needsBuild(project({ source: 1_000 }))).toBe(true);
    const root = project({ source: 1_000, stamp: 2_000 });
    mkdirSync(join(root, 'src', 'new'));
    writeFileSync(join(root, 'src', 'new', 'module.ts'), ''); // a file added now, in a folder
    expect(needsBuild(root)).toBe(true);
  });

  it('is what `npm start` runs first', async () => {
    const { readFileSync } = await import('node:fs');
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prestart).toBe('node scripts/build-if-changed.mjs');
  });
});
