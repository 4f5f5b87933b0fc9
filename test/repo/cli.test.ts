import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
    // The invalid port.yml and the binary JSON file could not be read, so the run is incomplete (exit 3).
    expect(report.incomplete.map((i) => i.resource)).toEqual(['fixtures/repo/payloads/blob.json', 'fixtures/repo/services/broken/port.yml:3']);
    expect(code).toBe(3);
    expect(stderr).toContain('not read: fixtures/repo/payloads/blob.json: could not be read (a NUL byte: binary, not text); the file was not checked');
    expect(report.findings.every((f) => f.resource.type === 'file')).toBe(true);
    // Issue 30: "payments" or "platform" may be a title or an identifier, but each is its own slug, so
    // the migration leaves it as it is either way: nothing to act on. The files describe an org that
    // has not migrated, where every team value is a title: "Payments" is one, and breaks.
    const verdictAt = (location: string) => report.findings.find((f) => f.location === location)?.verdict;
    expect(verdictAt('fixtures/repo/terraform/permissions.tf:13')).toBeUndefined();
    expect(verdictAt('fixtures/repo/pulumi-ts/index.ts:17')).toBeUndefined();
    expect(verdictAt('fixtures/repo/terraform/permissions.tf:31')).toBe('breaks');
    expect(verdictAt('fixtures/repo/services/checkout/port.yml:4')).toBe('breaks');
    expect(report.findings).toHaveLength(29);
    // The files are judged as the org they describe: its state, and why, is a note.
    expect(report.notes).toContainEqual(expect.stringMatching(/^migration state of repository fixtures\/repo: judged as not migrated: Blueprint manages _user/));
  });

  test('with --teams-map, titles get identifiers; the report matches its snapshot', async () => {
    const { report } = await analyzeRepo('--teams-map', 'fixtures/repo-teams.yaml');
    const checkout = report.findings.find((f) => f.location === 'fixtures/repo/services/checkout/port.yml:4');
    expect(checkout?.rewrite).toBe('team: platform');
    expect(report.summary).toEqual({
      automatic: 8,
      manual: 22,
      byCategory: {
        'team-permission-identifiers': 8,
        'external-ownership': 12,
        'calculation-property': 2,
        // Issue 21: with the teams map, "sre_oncall" is an identifier before the migration: it starts matching.
        'action-dynamic-permission': 3,
        'integration-mapping': 3,
        'page-widget': 1,
        'webhook-mapping': 1,
      },
    });
    await expect(JSON.stringify(report, null, 2)).toMatchFileSnapshot('__snapshots__/repo-only-report.json');
  });

  test('with an org, file findings join the org findings and the org decides Direct ownership', async () => {
    const { report } = await analyzeRepo('--snapshot', 'fixtures/demo-org.json');
    expect(report.organization.id).not.toBe('repository-only');
    const files = report.findings.filter((f) => f.resource.type === 'file');
    expect(files).toHaveLength(33);
    expect(report.findings.length).toBeGreaterThan(files.length);
    const direct = files.find((f) => f.location === 'fixtures/repo/terraform/blueprints.tf:13');
    expect(direct?.rewrite).toBe('ownership = { type = "Direct" }');
  });

  /** A repository of one actions file whose input is visible when `jqQuery` holds, scanned alone. */
  async function repoWithVisible(jqQuery: string): Promise<Report> {
    const dir = await mkdtemp(join(tmpdir(), 'tma-repo-jq-'));
    await mkdir(join(dir, '.port', 'resources'), { recursive: true });
    const action = { identifier: 'a', trigger: { type: 'self-service', userInputs: { properties: { x: { type: 'string', visible: { jqQuery } } } } } };
    await writeFile(join(dir, '.port', 'resources', 'actions.json'), JSON.stringify([action], null, 2));
    const out = join(dir, 'out');
    expect(await runCli(['analyze', '--repo', dir, '--out', out, '--format', 'json', '--fail-on', 'none'], io())).toBe(0);
    return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  }

  test('repository-only mode judges file expressions with jq itself, like the org: a title read is a finding at its line', async () => {
    const report = await repoWithVisible('.user.team | contains(["Payments Team"])');
    const finding = report.findings.find((f) => f.category === 'action-user-input');
    expect(finding?.location).toMatch(/\.port\/resources\/actions\.json:\d+$/);
    expect(finding?.verdict).toBe('breaks');
  });

  test('a file expression jq does not compile fails alike in both worlds: a note at its line, no finding, not verified', async () => {
    const report = await repoWithVisible('.user.team | contains(["Payments"]');
    expect(report.findings.filter((f) => f.category === 'action-user-input')).toEqual([]);
    expect((report.verified ?? []).filter((v) => v.category === 'action-user-input')).toEqual([]);
    expect(report.notes).toContainEqual(expect.stringMatching(/^action-user-input: file ".*actions\.json" .*:\d+: not judged: .*\(jq: .*syntax error/));
  });

  test("the README's CI recipe never scans its own snapshot, baseline or reports: every run finds the same", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-ci-recipe-'));
    await mkdir(join(dir, 'ci'));
    await mkdir(join(dir, 'infra'));
    await copyFile(resolve('fixtures/demo-org.json'), join(dir, 'ci', 'org-snapshot.json'));
    await writeFile(join(dir, 'infra', 'main.tf'), 'resource "port_blueprint" "svc" {\n  identifier = "svc"\n  team_inheritance = { path = "domain" }\n}\n');
    const recipe = ['analyze', '--snapshot', 'ci/org-snapshot.json', '--repo', '.', '--out', 'audit', '--format', 'html,json,sarif,junit,md'];
    const cwd = process.cwd();
    const runs: { code: number; report: Report; stderr: string }[] = [];
    process.chdir(dir); // the recipe's paths are relative to the checkout; the forks pool allows chdir
    try {
      const start = io();
      expect(await runCli([...recipe, '--write-baseline', 'ci/audit-baseline.json'], start)).toBe(0);
      for (let run = 0; run < 2; run++) {
        const cli = io();
        const code = await runCli([...recipe, '--fail-on', 'manual', '--baseline', 'ci/audit-baseline.json'], cli);
        runs.push({ code, report: JSON.parse(await readFile('audit/report.json', 'utf8')) as Report, stderr: cli.err.join('') });
      }
    } finally {
      process.chdir(cwd);
    }
    const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(second.report.findings.map((f) => f.id)).toEqual(first.report.findings.map((f) => f.id));
    expect(second.report.summary).toEqual(first.report.summary);
    for (const { code, report, stderr } of runs) {
      expect(code).toBe(0); // everything accepted, nothing stale
      expect(report.gate?.staleBaselineIds ?? []).toEqual([]);
      expect(report.findings.filter((f) => f.resource.type === 'file').map((f) => f.location)).toEqual(['infra/main.tf:3']);
      expect(report.findings.some((f) => /^(ci|audit)\//.test(f.resource.identifier) || /^(ci|audit)\//.test(f.location))).toBe(false);
      // The run's own files are skipped without a word; the notes are how many files were read, the repository's state (which the org decides) and the provider advice for infra/.
      expect(stderr.split('\n').filter((line) => line.startsWith('note:'))).toEqual([
        expect.stringMatching(/^note: files of repository \.: \d+ found, 1 of kinds the scan judges, 1 read whole$/),
        expect.stringMatching(/^note: migration state of repository \.: its files read as not migrated: blueprint svc keeps team inheritance \(infra\/main\.tf:3\); the org .* decides: it has not migrated$/),
        expect.stringMatching(/^note: review: Terraform configuration infra\/: no version constraint/),
      ]);
    }
  });

  test('a missing --repo directory is one line and exit 2', async () => {
    const cli = io();
    const code = await runCli(['analyze', '--repo', 'fixtures/nope', '--format', 'json', '--out', await mkdtemp(join(tmpdir(), 'tma-cli-'))], cli);
    expect(code).toBe(2);
    expect(cli.err.join('')).toBe('teams-migration-audit: --repo fixtures/nope: no such directory\n');
  });

  test('with neither an org nor a repository, the hint names both', async () => {
    const cli = io();
    expect(await runCli(['analyze', '--out', await mkdtemp(join(tmpdir(), 'tma-cli-'))], cli)).toBe(2);
    expect(cli.err.join('')).toContain('--snapshot FILE (an org-snapshot/1 file) or --repo DIR');
  });
});
