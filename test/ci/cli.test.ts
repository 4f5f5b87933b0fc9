import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cli/run-cli.js';
import { transpileForChild } from '../helpers/transpile.js';
import { demoSnapshotJson } from './helpers.js';
import { afterNodeNote } from '../helpers/node-note.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO = 'fixtures/demo-org.json';
/** The CLI as users run it, transpiled apart (the shared dist/ is left alone). */
let MAIN = '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real CLI as CI runs it: a separate node process, its exit code and its streams. Used where
 * the process is what is tested (its exit status, what it prints, that it ends); the rest runs
 * the same code in-process (runCli), which costs no node start and no build.
 */
function cli(args: string[], env: Record<string, string> = {}): Run {
  const inherited = { ...process.env };
  delete inherited.GITHUB_STEP_SUMMARY;
  delete inherited.SOURCE_DATE_EPOCH;
  const result = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...inherited, ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: afterNodeNote(result.stderr) };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'tma-cli-'));
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { gate: Record<string, unknown> };
const stderrLines = (run: Run) => run.stderr.split('\n').filter(Boolean);

/** The same CLI in this process, with a clock of the test's choosing. */
function inProcess(args: string[], env: Record<string, string> = {}, now = new Date('2026-01-02T03:04:05Z')): Promise<Run> {
  return runCliCaptured(args, env, { now: () => now });
}

beforeAll(() => {
  MAIN = join(transpileForChild(['src/main.ts'], { asPackage: true }), 'src', 'main.js');
});

describe('exit codes from a spawned CLI', () => {
  it('0: the gate passes (--fail-on none) and the reports are written', () => {
    const out = tmp();
    const run = cli(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(readJson(join(out, 'report.json')).gate).toMatchObject({ failOn: 'none', result: 'passed' });
    // The fix kit goes beside the reports unless --no-fixes.
    expect(readdirSync(out).sort()).toEqual(['fixes', 'index.html', 'report.json']);
  });

  it('1: manual findings fail the default gate, and the reports are still written', () => {
    const out = tmp();
    const run = cli(['analyze', '--snapshot', DEMO, '--out', out, '--format', 'json,junit']);
    expect(run.code).toBe(1);
    // Issue 21: the demo org's identifier condition (skip_drain) is a finding now: it starts matching after the migration.
    expect(run.stderr).toContain('gate FAILED');
    expect(readJson(join(out, 'report.json')).gate).toMatchObject({ failOn: 'manual', result: 'failed', failing: 28 });
    expect(readFileSync(join(out, 'report.junit.xml'), 'utf8')).toContain('failures="28"');
  });

  it('2: a malformed baseline is one line on stderr, before any analysis', () => {
    const dir = tmp();
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted: [{ id: 'abc', by: 'me' }] }));
    const run = cli(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--baseline', baseline]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([`teams-migration-audit: ${baseline}: not a valid baseline: accepted[0].reason must be a non-empty string`]);
    expect(() => readdirSync(join(dir, 'out'))).toThrow();
  });

  it('2: an unknown format and a bad SOURCE_DATE_EPOCH are usage errors on one line', () => {
    const format = cli(['analyze', '--snapshot', DEMO, '--out', tmp(), '--format', 'json,pdf']);
    expect(format.code).toBe(2);
    expect(stderrLines(format)).toEqual(['teams-migration-audit: unknown format "pdf" in --format; choose from html, json, sarif, junit, md']);
    const epoch = cli(['analyze', '--snapshot', DEMO, '--out', tmp()], { SOURCE_DATE_EPOCH: 'yesterday' });
    expect(epoch.code).toBe(2);
    expect(stderrLines(epoch)).toHaveLength(1);
  });

  it('3: an incomplete snapshot never passes, whatever the threshold, and no baseline is written from it', () => {
    const dir = tmp();
    const snapshot = demoSnapshotJson();
    snapshot.incomplete = [{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403' }];
    writeFileSync(join(dir, 'org.json'), JSON.stringify(snapshot));
    const run = cli(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out'), '--fail-on', 'none', '--format', 'json,md', '--write-baseline', join(dir, 'b.json')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('INCOMPLETE');
    expect(run.stderr).toContain('not writing');
    expect(() => readFileSync(join(dir, 'b.json'))).toThrow();
    expect(readJson(join(dir, 'out', 'report.json')).gate).toMatchObject({ result: 'incomplete' });
    expect(readFileSync(join(dir, 'out', 'summary.md'), 'utf8')).toContain('**Gate: incomplete** (exit 3)');
  });

  it('0: calculations that loop for ever or crash jq end as review findings; no hang, no stray output', () => {
    const dir = tmp();
    const snapshot = demoSnapshotJson();
    const service = snapshot.blueprints.find((b) => b.identifier === 'service') as { calculationProperties: Record<string, unknown> };
    service.calculationProperties.loops = { calculation: '.team as $t | last(range(1e9)) | $t', type: 'string' };
    service.calculationProperties.recurses = { calculation: 'def f: [f]; .team | f', type: 'string' };
    writeFileSync(join(dir, 'org.json'), JSON.stringify(snapshot));
    // A hang guard, far past any machine's pace (two time limits of a second each and the demo).
    const run = spawnSync(process.execPath, [MAIN, 'analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out'), '--fail-on', 'none', '--format', 'json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 100_000,
    });
    expect(run.signal).toBeNull(); // not killed by the guard: it finished by itself
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(afterNodeNote(run.stderr).split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^fix kit: /), expect.stringMatching(/gate passed$/), `wrote ${join(dir, 'out', 'report.json')}`]);
    const report = readJson(join(dir, 'out', 'report.json')) as unknown as { findings: { location: string; verdict: string; note?: string }[]; ruleErrors?: unknown };
    expect(report.ruleErrors).toBeUndefined();
    for (const property of ['loops', 'recurses']) {
      expect(report.findings.find((f) => f.location === `calculationProperties.${property}.calculation`)).toMatchObject({
        verdict: 'review',
        note: expect.stringMatching(/^jq (evaluation timed out|crashed) /),
      });
    }
    // The demo's own calculations are still judged.
    expect(report.findings.find((f) => f.location === 'calculationProperties.platform_owned.calculation')?.verdict).toBe('breaks');
  });

  it('--help documents the exit codes and the gate options', async () => {
    const run = await inProcess(['analyze', '--help']);
    expect(run.code).toBe(0);
    for (const text of ['Exit codes:', '0  analysis complete; the gate passed', '3  analysis incomplete', '--fail-on-verdict', '--baseline <file>', '--write-baseline <file>', 'sarif,junit,md']) {
      expect(run.stdout).toContain(text);
    }
  });
});

describe('baseline, in-process', () => {
  it('writes a baseline, passes with it, fails on a new finding, and reports stale entries', async () => {
    const dir = tmp();
    const baseline = join(dir, 'audit-baseline.json');
    const written = await inProcess(['analyze', '--snapshot', DEMO, '--out', join(dir, 'w'), '--format', 'json', '--write-baseline', baseline], { GITHUB_ACTOR: 'octocat' });
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(`wrote ${baseline}: 28 accepted findings, 28 new`);
    const document = readJson(baseline) as unknown as { format: string; accepted: { id: string; reason: string; by: string }[] };
    expect(document.format).toBe('teams-migration-audit-baseline/1');
    expect(document.accepted).toHaveLength(28);
    expect(document.accepted.every((e) => e.reason === 'accepted at baseline creation' && e.by === 'octocat')).toBe(true);

    // accepted: every manual finding is in the baseline → pass, findings still visible and marked
    const accepted = await inProcess(['analyze', '--snapshot', DEMO, '--out', join(dir, 'a'), '--format', 'json', '--baseline', baseline]);
    expect(accepted.code).toBe(0);
    const report = readJson(join(dir, 'a', 'report.json')) as unknown as { findings: { accepted?: unknown }[]; gate: unknown };
    expect(report.findings.filter((f) => f.accepted)).toHaveLength(28);
    expect(report.gate).toEqual({ failOn: 'manual', result: 'passed', failing: 0, accepted: 28 });

    // new + stale: drop one entry (its finding is new again) and add one that matches nothing
    const [dropped, ...rest] = document.accepted;
    writeFileSync(baseline, JSON.stringify({ ...document, accepted: [...rest, { id: 'deadbeefdeadbeef', reason: 'fixed long ago', by: 'bob' }] }));
    const mixed = await inProcess(['analyze', '--snapshot', DEMO, '--out', join(dir, 'm'), '--format', 'json,md', '--baseline', baseline]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('1 stale baseline entry matches no finding');
    expect(mixed.stderr).toContain('deadbeefdeadbeef');
    const gate = readJson(join(dir, 'm', 'report.json')).gate;
    expect(gate).toEqual({ failOn: 'manual', result: 'failed', failing: 1, accepted: 27, staleBaselineIds: ['deadbeefdeadbeef'] });
    expect(readFileSync(join(dir, 'm', 'summary.md'), 'utf8')).toContain('- deadbeefdeadbeef');
    expect(dropped).toBeDefined();
  });
});

describe('CI integration and determinism, in-process', () => {
  it('appends the summary to GITHUB_STEP_SUMMARY, keeping what earlier steps wrote', async () => {
    const dir = tmp();
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# Earlier step\n');
    const run = await inProcess(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--format', 'md', '--fail-on', 'none'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(0);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# Earlier step\n')).toBe(true);
    expect(text.slice('# Earlier step\n'.length)).toBe(readFileSync(join(dir, 'out', 'summary.md'), 'utf8'));
  });

  it('writes byte-identical reports in every format for the same input', async () => {
    const [a, b] = [tmp(), tmp()];
    const args = ['analyze', '--snapshot', DEMO, '--format', 'html,json,sarif,junit,md', '--fail-on', 'none'];
    // Two runs at different times: SOURCE_DATE_EPOCH, not the clock, dates the page.
    expect((await inProcess([...args, '--out', a], { SOURCE_DATE_EPOCH: '1735689600' }, new Date('2026-03-01T00:00:00Z'))).code).toBe(0);
    expect((await inProcess([...args, '--out', b], { SOURCE_DATE_EPOCH: '1735689600' }, new Date('2026-04-01T12:34:56Z'))).code).toBe(0);
    const files = readdirSync(a, { recursive: true }).map(String).filter((file) => statSync(join(a, file)).isFile()).sort();
    expect(files.filter((file) => !file.startsWith('fixes'))).toEqual(['index.html', 'report.json', 'report.junit.xml', 'report.sarif', 'summary.md']);
    // The fix kit is as reproducible as the reports.
    expect(files).toContain(join('fixes', 'predicted-org.json'));
    for (const file of files) expect(readFileSync(join(b, file)), file).toEqual(readFileSync(join(a, file)));
    expect(readFileSync(join(a, 'index.html'), 'utf8')).toContain('2025-01-01T00:00:00.000Z');
  });

  it('needs no SOURCE_DATE_EPOCH for the formats without a timestamp', async () => {
    const [a, b] = [tmp(), tmp()];
    const args = ['analyze', '--snapshot', DEMO, '--format', 'json,sarif,junit,md', '--fail-on', 'none'];
    // Run at different times: nothing of these formats may follow the clock.
    await inProcess([...args, '--out', a], {}, new Date('2026-03-01T00:00:00Z'));
    await inProcess([...args, '--out', b], {}, new Date('2026-04-01T12:34:56Z'));
    for (const file of ['report.json', 'report.sarif', 'report.junit.xml', 'summary.md']) {
      expect(readFileSync(join(b, file)), file).toEqual(readFileSync(join(a, file)));
    }
    const sarif = JSON.parse(readFileSync(join(a, 'report.sarif'), 'utf8')) as { runs: { results: { locations: { physicalLocation?: { artifactLocation: { uri: string } } }[] }[] }[] };
    // the snapshot is inside the working directory, so org findings are anchored to it for code scanning
    expect(sarif.runs[0]?.results[0]?.locations[0]?.physicalLocation?.artifactLocation.uri).toBe(DEMO);
  });
});
