import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli.js';

describe('stderr counts agree with their nouns', () => {
  it('one finding over the gate reads "1 finding", and no line hedges with "(s)"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-plurals-'));
    const baseline = join(dir, 'baseline.json');
    const written = await runCliCaptured(['analyze', '--demo', '--out', join(dir, 'a'), '--format', 'json', '--fail-on', 'manual', '--write-baseline', baseline, '--accepted-by', 'alice'], {});
    expect(written.code).toBe(0);
    // Accept all but one: exactly one finding fails the gate.
    const file = JSON.parse(readFileSync(baseline, 'utf8')) as { accepted: unknown[] };
    writeFileSync(baseline, JSON.stringify({ ...file, accepted: file.accepted.slice(1) }));
    const run = await runCliCaptured(['analyze', '--demo', '--out', join(dir, 'b'), '--format', 'json', '--fail-on', 'manual', '--baseline', baseline, '--no-fixes'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Acme Payments: 16 automatic changes, 28 manual items; gate FAILED: 1 finding over --fail-on manual \(27 accepted in the baseline\)$/m);
    expect(run.stderr).not.toContain('(s)');
    // The threshold is named as it was given, the verdict too.
    const breaking = await runCliCaptured(['analyze', '--demo', '--out', join(dir, 'c'), '--format', 'json', '--fail-on', 'manual', '--fail-on-verdict', 'breaks', '--no-fixes', '--quiet'], {});
    expect(breaking.stderr).toMatch(/gate FAILED: \d+ findings over --fail-on manual --fail-on-verdict breaks$/m);
  }, 60_000);
});

describe('the fix kit and the baseline count as the rest do', () => {
  it('the demo\'s fix-kit line, its README and a written baseline hedge with no "(s)"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-plurals-kit-'));
    const run = await runCliCaptured(['analyze', '--demo', '--out', join(dir, 'out'), '--format', 'json', '--write-baseline', join(dir, 'baseline.json'), '--accepted-by', 'alice'], {});
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^fix kit: \d+ files in .+ resolve \d+ findings; (1 breaking finding is|\d+ breaking findings are) left to a person/m);
    expect(run.stderr).toMatch(/wrote .*baseline\.json: \d+ accepted findings, \d+ new/);
    expect(run.stderr).not.toContain('(s)');
    expect(readFileSync(join(dir, 'out', 'fixes', 'README.md'), 'utf8')).not.toContain('(s)');
  }, 60_000);
});
