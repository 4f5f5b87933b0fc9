import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAll } from '../../src/model/arrays.js';
import { runWithin, scratchDir } from './helpers.js';

/*
 * Issue 23 item 6: lists from input that reached `push(...list)` overflowed the stack past about
 * 100,000 items: 200,000 stale baseline entries with --format md, 150,000 files in a repository
 * (exit 3, no report). Measured by hand on the 150,000-file repository (its reads take about half a
 * minute, too long for this suite): RangeError before, a report after.
 */
describe('input lists of any length', () => {
  it('appendAll takes 300,000 items, where spreading them overflows', () => {
    const many = Array.from({ length: 300_000 }, (_, index) => index);
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    expect(appendAll([-1], many)).toHaveLength(300_001);
  });

  it('200,000 stale baseline entries with --format md: a report, in seconds, listing every one', async () => {
    const dir = scratchDir('large');
    const accepted = Array.from({ length: 200_000 }, (_, index) => ({ id: `gone-${index}`, reason: 'old', by: 'someone' }));
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted }));
    const run = await runWithin(['analyze', '--snapshot', 'fixtures/demo-org.json', '--baseline', join(dir, 'baseline.json'), '--out', join(dir, 'out'), '--format', 'md,json', '--fail-on', 'none', '--quiet']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain('200000 baseline entries match no finding any more');
    expect(summary).toContain('- gone-199999\n');
  }, 40_000);
});
