import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'tma-merge-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Three orgs of one company: the demo org as production, a staging copy, and a development org holding an `sre` team the others lack. */
function writeOrgs(): string[] {
  const demo = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8'));
  const prod = { ...demo, organization: { id: 'org_prod', name: 'Acme prod' } };
  // Staging was promoted from development: its service permissions name development's `sre` team.
  const staging = {
    ...demo,
    organization: { id: 'org_staging', name: 'Acme staging' },
    blueprintPermissions: { ...demo.blueprintPermissions, service: { entities: { register: { roles: ['Admin'], users: [], teams: ['sre'] } } } },
  };
  const dev = {
    format: 'org-snapshot/1',
    organization: { id: 'org_dev', name: 'Acme dev' },
    blueprints: [{ identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} }],
    teams: [{ name: 'SRE', identifier: 'sre' }],
    entities: { _team: [{ identifier: 'sre', title: 'SRE' }] },
  };
  return [prod, staging, dev].map((org, i) => {
    const path = join(work, `org-${i}.json`);
    writeFileSync(path, JSON.stringify(org));
    return path;
  });
}

describe('merge: the reports of several orgs as one (issue 41)', () => {
  it('gives each org, its findings marked with it, the orgs’ gates as one, and what only the orgs side by side show', async () => {
    const reports: string[] = [];
    for (const [i, snapshot] of writeOrgs().entries()) {
      const out = join(work, `out-${i}`);
      const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', out, '--format', 'json', '--no-fixes']);
      expect([0, 1]).toContain(run.code);
      reports.push(join(out, 'report.json'));
    }
    const one = await runCliCaptured(['merge', '--out', join(work, 'merged'), ...reports]);
    const other = await runCliCaptured(['merge', '--out', join(work, 'merged-again'), ...[...reports].reverse()]);
    const text = readFileSync(join(work, 'merged', 'report.json'), 'utf8');
    // The reports in any order: the same bytes.
    expect(readFileSync(join(work, 'merged-again', 'report.json'), 'utf8')).toBe(text);
    expect(other.code).toBe(one.code);
    const merged = JSON.parse(text) as Report;
    const singles = reports.map((path) => JSON.parse(readFileSync(path, 'utf8')) as Report);
    expect(merged.orgs?.map((org) => org.organization.id)).toEqual(['org_dev', 'org_prod', 'org_staging']);
    expect(merged.findings).toHaveLength(singles.reduce((n, report) => n + report.findings.length, 0));
    expect(new Set(merged.findings.map((finding) => finding.org))).toEqual(new Set(['org_prod', 'org_staging']));
    expect(merged.gate?.failing).toBe(singles.reduce((n, report) => n + (report.gate?.failing ?? 0), 0));
    expect(one.code).toBe(1);
    expect(merged.crossOrg).toContainEqual(expect.objectContaining({ check: 'team-missing', org: 'org_staging', team: 'sre', resource: 'blueprint service' }));
    const page = readFileSync(join(work, 'merged', 'index.html'), 'utf8');
    expect(page).toContain('3 orgs: Acme dev, Acme prod, Acme staging');
    expect(page).toMatch(/<td>Acme staging <code>org_staging<\/code><\/td><td>\d+<\/td><td>\d+<\/td><td>failed \(\d+ failing\)<\/td>/);
    expect(page).toContain('<strong>team this org lacks</strong> (Acme staging)');
    const summary = readFileSync(join(work, 'merged', 'summary.md'), 'utf8');
    expect(summary).toContain('| Acme dev (org\\_dev) | 0 | 0 | passed |');
    expect(summary).toContain('- **team this org lacks** (Acme staging)');
  });

  it('one analyze over the three orgs gives the report the merge of their separate runs gives, byte for byte', async () => {
    const snapshots = writeOrgs();
    const separate: string[] = [];
    for (const [i, snapshot] of snapshots.entries()) {
      const out = join(work, `alone-${i}`);
      expect([0, 1]).toContain((await runCliCaptured(['analyze', snapshot, '--out', out, '--format', 'json'])).code);
      separate.push(join(out, 'report.json'));
    }
    const merged = await runCliCaptured(['merge', '--out', join(work, 'gathered'), '--format', 'json', ...separate]);
    const together = await runCliCaptured(['analyze', ...snapshots, '--out', join(work, 'together'), '--format', 'json']);
    expect(together.code).toBe(merged.code);
    expect(readFileSync(join(work, 'together', 'report.json'), 'utf8')).toBe(readFileSync(join(work, 'gathered', 'report.json'), 'utf8'));
    // Each org's own reports and kit beside it.
    expect(readFileSync(join(work, 'together', 'orgs', '1-org-0', 'report.json'), 'utf8')).toBe(readFileSync(separate[0]!, 'utf8'));
  });

  it('several orgs refuse, in one line and before any is read, the flags that write one file per run (each org would write over the last)', async () => {
    const snapshots = writeOrgs();
    const baseline = join(work, 'several-baseline.json');
    for (const [flags, named] of [
      [['--write-baseline', baseline], '--write-baseline'],
      [['--baseline', baseline, '--prune-baseline'], '--prune-baseline'],
      [['--fix', '--repo', 'fixtures/repo'], '--fix'],
      [['--fix-out', join(work, 'kit')], '--fix-out'],
    ] as const) {
      const out = join(work, `several-${named.slice(2)}`);
      const run = await runCliCaptured(['analyze', ...snapshots, '--out', out, '--format', 'json', ...flags]);
      expect([run.code, run.stderr.trim().split('\n').length], named).toEqual([2, 1]);
      expect(run.stderr).toContain(`${named} with several orgs`);
      expect(existsSync(out), named).toBe(false);
    }
    expect(existsSync(baseline)).toBe(false);
  });

  it('refuses one report, a file that is no report, and two reports of one org, in one line', async () => {
    const demo = join(work, 'out-0', 'report.json');
    expect((await runCliCaptured(['merge', '--out', join(work, 'm1'), demo])).stderr).toMatch(/give two report\.json files or more/);
    const notReport = await runCliCaptured(['merge', '--out', join(work, 'm2'), demo, 'fixtures/demo-org.json']);
    expect([notReport.code, notReport.stderr]).toEqual([2, expect.stringContaining('not a teams-migration-audit report')]);
    const twice = await runCliCaptured(['merge', '--out', join(work, 'm3'), demo, demo]);
    expect([twice.code, twice.stderr]).toEqual([2, expect.stringContaining('two reports are of the org "org_prod"')]);
  });
});
