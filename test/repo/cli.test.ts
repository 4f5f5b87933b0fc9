import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import type { Report } from '../../src/model/finding.js';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, now: () => new Date('2025-06-01T00:00:00Z') };
}

async function analyzeRepo(...extra: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const out = await mkdtemp(join(tmpdir(), 'tma-cli-'));
  const cli = io();
  const code = await runCli(['analyze', '--repo', 'fixtures/repo', '--out', out, '--format', 'json', ...extra], cli);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  return { code, report, stderr: cli.err.join('') };
}

describe('analyze --repo (repository-only mode)', () => {
  test('analyzes an empty org named after the directories and never claims entities are missing', async () => {
    const { code, report, stderr } = await analyzeRepo();
    expect(report.organization).toEqual({ id: 'repository-only', name: 'fixtures/repo' });
    // The invalid port.yml is the only thing that could not be read, so the run is incomplete (exit 3).
    expect(report.incomplete.map((i) => i.resource)).toEqual(['fixtures/repo/services/broken/port.yml:3']);
    expect(code).toBe(3);
    expect(stderr).toContain('note: fixtures/repo/payloads/blob.json: skipped, a binary file\n');
    expect(report.findings.every((f) => f.resource.type === 'file')).toBe(true);
    // Without a team directory, "payments" or "platform" could be a title or an identifier: listed for review.
    const verdictAt = (location: string) => report.findings.find((f) => f.location === location)?.verdict;
    expect(verdictAt('fixtures/repo/terraform/permissions.tf:13')).toBe('review');
    expect(verdictAt('fixtures/repo/pulumi-ts/index.ts:17')).toBe('review');
    expect(verdictAt('fixtures/repo/services/checkout/port.yml:4')).toBe('breaks');
    expect(report.findings).toHaveLength(29);
  });

  test('with --teams-map, titles get identifiers; the report matches its snapshot', async () => {
    const { report } = await analyzeRepo('--teams-map', 'fixtures/repo-teams.yaml');
    const checkout = report.findings.find((f) => f.location === 'fixtures/repo/services/checkout/port.yml:4');
    expect(checkout?.rewrite).toBe('team: platform');
    expect(report.summary).toEqual({
      automatic: 8,
      manual: 19,
      byCategory: { 'team-permission-identifiers': 8, 'external-ownership': 13, 'integration-mapping': 4, 'page-widget': 1, 'webhook-mapping': 1 },
    });
    await expect(JSON.stringify(report, null, 2)).toMatchFileSnapshot('__snapshots__/repo-only-report.json');
  });

  test('with an org, file findings join the org findings and the org decides Direct ownership', async () => {
    const { report } = await analyzeRepo('--snapshot', 'fixtures/demo-org.json');
    expect(report.organization.id).not.toBe('repository-only');
    const files = report.findings.filter((f) => f.resource.type === 'file');
    expect(files).toHaveLength(28);
    expect(report.findings.length).toBeGreaterThan(files.length);
    const direct = files.find((f) => f.location === 'fixtures/repo/terraform/blueprints.tf:14');
    expect(direct?.rewrite).toBe('ownership = { type = "Direct" }');
  });

  test('a missing --repo directory is one line and exit 2', async () => {
    const cli = io();
    const code = await runCli(['analyze', '--repo', 'fixtures/nope', '--format', 'json'], cli);
    expect(code).toBe(2);
    expect(cli.err.join('')).toBe('teams-migration-audit: --repo fixtures/nope: no such directory\n');
  });

  test('with neither an org nor a repository, the hint names both', async () => {
    const cli = io();
    expect(await runCli(['analyze'], cli)).toBe(2);
    expect(cli.err.join('')).toContain('--snapshot FILE (an org-snapshot/1 file) or --repo DIR');
  });
});
