import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBaseline } from '../../src/baseline/baseline.js';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';

const DEMO = 'fixtures/demo-org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-tighten-'));
/** 2026-03-01T00:00:00Z: the run's date, through SOURCE_DATE_EPOCH as every output reads it. */
const ON_1_MARCH = { SOURCE_DATE_EPOCH: String(Date.UTC(2026, 2, 1) / 1000) };

/** A baseline of the demo's manual findings, as --write-baseline writes it. */
async function demoBaseline(dir: string): Promise<{ path: string; ids: string[] }> {
  const path = join(dir, 'baseline.json');
  const written = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'first'), '--format', 'json', '--fail-on', 'none', '--quiet', '--write-baseline', path]);
  expect(written.code).toBe(0);
  return { path, ids: validateBaseline(JSON.parse(readFileSync(path, 'utf8')), path).accepted.map((entry) => entry.id) };
}

const rewrite = (path: string, change: (document: { accepted: Record<string, unknown>[] }) => void) => {
  const document = JSON.parse(readFileSync(path, 'utf8')) as { accepted: Record<string, unknown>[] };
  change(document);
  writeFileSync(path, JSON.stringify(document, null, 2));
};

describe('baselines that tighten (issue 42)', () => {
  it('an entry past its expires date accepts nothing: its finding counts again, and the run says which', async () => {
    const dir = tmp();
    const { path, ids } = await demoBaseline(dir);
    rewrite(path, (document) => {
      document.accepted[0]!.expires = '2026-02-28';
      document.accepted[1]!.expires = '2026-03-01'; // the day itself still accepts
    });
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--format', 'json,md', '--baseline', path], ON_1_MARCH);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    expect(report.gate?.failing).toBe(1);
    expect(report.gate?.expiredBaselineIds).toEqual([ids[0]]);
    expect(report.findings.find((f) => f.id === ids[0])?.accepted).toBeUndefined();
    expect(report.findings.find((f) => f.id === ids[1])?.accepted).toBeDefined();
    expect(run.stderr).toContain(`1 baseline entry expired, so its finding counts again (renew the date or fix the finding): ${ids[0]} (2026-02-28)`);
    expect(readFileSync(join(dir, 'out', 'summary.md'), 'utf8')).toContain(`### Expired baseline entries`);
  });

  it('an expires that is no ISO date is a one-line error before any analysis', async () => {
    const dir = tmp();
    const { path } = await demoBaseline(dir);
    rewrite(path, (document) => (document.accepted[0]!.expires = '01/03/2026'));
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--baseline', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`teams-migration-audit: ${path}: not a valid baseline: accepted[0].expires must be an ISO date (YYYY-MM-DD), found "01/03/2026"\n`);
  });

  it('--prune-baseline writes the baseline without its stale entries, keeping the rest byte for byte as rendered', async () => {
    const dir = tmp();
    const { path, ids } = await demoBaseline(dir);
    rewrite(path, (document) => document.accepted.push({ id: 'deadbeefdeadbeef', reason: 'gone since', by: 'bob' }));
    const pruned = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--format', 'json', '--baseline', path, '--prune-baseline']);
    expect(pruned.code).toBe(0);
    expect(pruned.stderr).toContain(`wrote ${path}: 1 stale entry pruned (deadbeefdeadbeef), ${ids.length} entries kept`);
    expect(validateBaseline(JSON.parse(readFileSync(path, 'utf8')), path).accepted.map((entry) => entry.id)).toEqual(ids);
    // Without it, the stale entry is only listed.
    rewrite(path, (document) => document.accepted.push({ id: 'deadbeefdeadbeef', reason: 'gone since', by: 'bob' }));
    const listed = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out2'), '--format', 'json', '--baseline', path]);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain('1 stale baseline entry matches no finding');
    expect(readFileSync(path, 'utf8')).toContain('deadbeefdeadbeef');
  });

  it('--fail-on-stale-baseline fails the gate on an entry that matches no finding, and passes without one', async () => {
    const dir = tmp();
    const { path } = await demoBaseline(dir);
    expect((await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'clean'), '--format', 'json', '--baseline', path, '--fail-on-stale-baseline', '-q'])).code).toBe(0);
    rewrite(path, (document) => document.accepted.push({ id: 'deadbeefdeadbeef', reason: 'gone since', by: 'bob' }));
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--format', 'json', '--baseline', path, '--fail-on-stale-baseline', '-q']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('gate FAILED: 0 findings over --fail-on manual and 1 stale baseline entry (--fail-on-stale-baseline)');
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    expect([report.gate?.result, report.gate?.staleFails, report.gate?.staleBaselineIds]).toEqual(['failed', true, ['deadbeefdeadbeef']]);
  });

  it('accepted findings are left out of report.sarif and listed in summary.md', async () => {
    const dir = tmp();
    const { path, ids } = await demoBaseline(dir);
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'out'), '--format', 'sarif,md', '--baseline', path, '-q']);
    expect(run.code).toBe(0);
    const sarif = JSON.parse(readFileSync(join(dir, 'out', 'report.sarif'), 'utf8')) as { runs: { results: { properties: { findingId: string } }[] }[] };
    const inSarif = new Set(sarif.runs[0]!.results.map((r) => r.properties.findingId));
    for (const id of ids) expect(inSarif.has(id), id).toBe(false);
    const summary = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain(`${ids.length} findings accepted in the baseline (not in report.sarif unless --sarif-accepted):`);
    for (const id of ids) expect(summary).toContain(`- ${id} `);
    const kept = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(dir, 'kept'), '--format', 'sarif', '--baseline', path, '-q', '--sarif-accepted']);
    expect(kept.code).toBe(0);
    const all = JSON.parse(readFileSync(join(dir, 'kept', 'report.sarif'), 'utf8')) as { runs: { results: { properties: { findingId: string } }[] }[] };
    expect(all.runs[0]!.results.filter((r) => ids.includes(r.properties.findingId))).toHaveLength(ids.length);
  });
});
