import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { applyPatchedFiles } from '../../src/fix/write-fixes.js';
import type { Report } from '../../src/model/finding.js';
import { buildReportView } from '../../src/report/view-model.js';
import { validate } from '../ci/json-schema.js';
import { REPORT_SCHEMA } from '../ci/schemas.js';
import { runCliCaptured } from '../cli/run-cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'fixkit-cli-'));

describe('analyze writes the fix kit', () => {
  it('lists every file it wrote in report.fixes, with the findings each resolves; the report fits its schema', async () => {
    const out = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', 'fixtures/repo', '--teams-map', 'fixtures/repo-teams.yaml', '--out', out, '--fail-on', 'none', '--format', 'json,html,md', '--fix-out', join(out, 'fixes')]);
    expect(run.code).toBe(3); // fixtures/repo holds an unreadable file on purpose
    expect(run.stderr).toMatch(/fix kit: \d+ files? in .*fixes resolve \d+ findings?/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(validate(REPORT_SCHEMA, report)).toEqual([]);
    const fixes = report.fixes!;
    expect(fixes.fromReport).toBe('fixes');
    expect(fixes.files.map((file) => file.kind)).toEqual(expect.arrayContaining(['resource', 'repo-patch', 'data-migration', 'bulk-upsert', 'predicted-org', 'readme']));
    const ids = new Set(report.findings.map((finding) => finding.id));
    for (const file of fixes.files) {
      expect(existsSync(join(out, 'fixes', file.path)), file.path).toBe(true);
      for (const id of file.findings) expect(ids).toContain(id);
    }
    // The breaking finding with an unknown identifier is not pretended away: it says what is missing.
    const dataScience = report.findings.find((f) => f.location === 'fixtures/repo/terraform/permissions.tf:24')!;
    expect(fixes.unresolved?.map((u) => u.id)).toContain(dataScience.id);
    expect(dataScience.note).toMatch(/No file of the fix kit fixes this: it needs .*--teams-map/);
    // The HTML links each fixed finding to its file beside the report; Markdown points at the folder.
    const payload = buildReportView(report, { generatedAt: '2026-01-02T03:04:05Z', source: 'test' }).client;
    expect(payload.findings.find((f) => f.location === 'calculationProperties.platform_owned.calculation')?.fix).toBe('fixes/org/blueprint/service.json');
    expect(payload.findings.find((f) => f.location === 'fixtures/repo/terraform/blueprints.tf:24')?.fix).toBe('fixes/repo.patch');
    expect(payload.findings.find((f) => f.location === 'fixtures/repo/terraform/permissions.tf:24')?.fix).toBe('');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/\*\*Fix kit:\*\* `.*fixes\/` \(a path from the report folder, `--out`\) holds \d+ files? that fix(es)? \d+ findings?/);
  });

  it('by default the kit goes to <out>/fixes; with --no-fixes no kit is written and the report has no fixes', async () => {
    const out = tmp();
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--format', 'json']);
    expect(existsSync(join(out, 'fixes', 'predicted-org.json'))).toBe(true);
    expect((JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report).fixes?.dir).toBe('fixes');
    rmSync(join(out, 'fixes'), { recursive: true });
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--format', 'json', '--no-fixes']);
    expect(existsSync(join(out, 'fixes'))).toBe(false);
    // Both a folder for the kit and no kit: contradictory, said in one line before anything is read.
    const both = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', join(out, 'other'), '--fix-out', join(out, 'kit'), '--no-fixes']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^teams-migration-audit: --fix-out names a folder for the fix kit and --no-fixes writes none: give one of them[^\n]*\n$/);
    expect(existsSync(join(out, 'kit'))).toBe(false);
    expect((JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report).fixes).toBeUndefined();
  });

  it('--fix-out DIR puts the kit there', async () => {
    const out = tmp();
    const kit = join(tmp(), 'kit');
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--format', 'json', '--fix-out', kit]);
    expect(existsSync(join(kit, 'predicted-org.json'))).toBe(true);
    expect(existsSync(join(out, 'fixes'))).toBe(false);
  });

  it('--fix changes the repository in place; a second run finds nothing breaking to fix there', async () => {
    const repo = join(tmp(), 'repo');
    cpSync('fixtures/repo', repo, { recursive: true });
    const teams = join(tmp(), 'teams.yaml');
    writeFileSync(teams, `${readFileSync('fixtures/repo-teams.yaml', 'utf8')}Data Science: data_science\n`);
    const out = tmp();
    const first = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', repo, '--teams-map', teams, '--out', out, '--fail-on', 'none', '--format', 'json', '--fix']);
    expect(first.stderr).toMatch(/--fix: changed \d+ files? in place: .*; \d+ findings? in files fixed, \d+ remains?/);
    expect(existsSync(join(out, 'fixes', 'repo.patch'))).toBe(true);
    expect(readFileSync(join(repo, 'terraform/blueprints.tf'), 'utf8')).toContain('resource "port_system_blueprint" "team"');
    // The run that fixed reports what remains: what it fixed is neither counted nor gated.
    const afterFix = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(afterFix.findings.filter((f) => f.resource.type === 'file' && f.verdict === 'breaks' && !f.reason.includes('written for team identifiers')).map((f) => f.location)).toEqual([]);
    const [, fixedCount, remain] = /(\d+) findings? in files fixed, (\d+) remains?/.exec(first.stderr)!;
    expect(Number(fixedCount)).toBeGreaterThan(0);
    expect(afterFix.findings.filter((f) => f.resource.type === 'file').length).toBeGreaterThanOrEqual(Number(remain));
    expect(afterFix.fixes?.files.length).toBeGreaterThan(0);
    // And it is what a fresh run sees.
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', repo, '--teams-map', teams, '--out', out, '--fail-on', 'none', '--format', 'json']);
    const second = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    // Issue 21: before the migration, a line now written for identifiers starts matching only afterwards.
    expect(second.findings.filter((f) => f.resource.type === 'file' && f.verdict === 'breaks' && !f.reason.includes('written for team identifiers')).map((f) => f.location)).toEqual([]);
    expect(second.findings.map((f) => f.id).sort()).toEqual(afterFix.findings.map((f) => f.id).sort());
    expect(second.summary).toEqual(afterFix.summary);
  });

  it('the kit README names what it leaves to a person by resource and location, in words, citing no spec a user lacks', async () => {
    const out = tmp();
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--format', 'json']);
    const readme = readFileSync(join(out, 'fixes', 'README.md'), 'utf8');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const left = readme.slice(readme.indexOf('## Not in the kit')).split('\n').filter((line) => line.startsWith('- '));
    expect(left.length).toBe(report.fixes?.unresolved?.length);
    // Org text as summary.md writes it (escaped, outside code spans): issue 38 item 8.
    for (const line of left) expect(line).toMatch(/^- (blueprint|action|automation|page|integration|webhook|scorecard) [^`]+, [^`]+ \(finding [0-9a-f]{16}\): needs /);
    expect(readme).not.toMatch(/§|can be computed/);
  });

  it('--fix without --repo is a usage error', async () => {
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', tmp(), '--fix']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('teams-migration-audit: --fix applies the repository patch, so it needs --repo DIR\n');
  });
});

describe('applyPatchedFiles', () => {
  it('refuses with one line, and writes nothing, when a file changed since it was read', async () => {
    const dir = tmp();
    // Paths as findings name them: an absolute --repo is shown by its folder name.
    const shown = (file: string) => `${basename(dir)}/${file}`;
    writeFileSync(join(dir, 'a.tf'), 'teams = ["X"]\n');
    writeFileSync(join(dir, 'b.tf'), 'edited by someone else\n');
    const patched = [
      { path: shown('a.tf'), before: 'teams = ["X"]\n', after: 'teams = ["x"]\n' },
      { path: shown('b.tf'), before: 'teams = ["Y"]\n', after: 'teams = ["y"]\n' },
    ];
    await expect(applyPatchedFiles(patched, [dir])).rejects.toThrow(InputError);
    await expect(applyPatchedFiles(patched, [dir])).rejects.toThrow(new RegExp(`^--fix: ${shown('b.tf')} changed since it was read; nothing was changed: run the audit again$`));
    expect(readFileSync(join(dir, 'a.tf'), 'utf8')).toBe('teams = ["X"]\n');
    writeFileSync(join(dir, 'b.tf'), 'teams = ["Y"]\n');
    expect(await applyPatchedFiles(patched, [dir])).toEqual([shown('a.tf'), shown('b.tf')]);
    expect(readFileSync(join(dir, 'a.tf'), 'utf8')).toBe('teams = ["x"]\n');
    expect(readFileSync(join(dir, 'b.tf'), 'utf8')).toBe('teams = ["y"]\n');
  });
});

describe('repo.patch applies from each repository, wherever --repo was given from', () => {
  /**
   * The `git apply` lines of the kit's README, run as written: each from the top of the repository
   * its comment names (given relative to where the audit ran), with KIT set to the kit's folder, as a
   * reader who unpacked the kit from a CI artifact does. No line names a path of the machine that ran it.
   */
  function applyAsReadmeSays(written: string): string[] {
    // Downloaded and unpacked elsewhere: the folder the run wrote is gone.
    const kit = join(tmp(), 'artifact', 'fixes');
    cpSync(written, kit, { recursive: true });
    rmSync(written, { recursive: true });
    const readme = readFileSync(join(kit, 'README.md'), 'utf8');
    // An absolute path, not the tail of a relative one ("../../tmp/x" holds "/tmp/x").
    const absolute = (path: string) => new RegExp(`(^|[^./\\w-])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    expect(readme).not.toMatch(absolute(written));
    expect(readme).not.toMatch(absolute(process.cwd()));
    expect(readme).toMatch(/^KIT=/m);
    const lines = readme.split('\n');
    const commands: string[] = [];
    lines.forEach((line, index) => {
      if (!line.startsWith('git apply ')) return;
      const where = /^# .*\(([^()]+) from where the audit ran\)$/.exec(lines[index - 1] ?? '')?.[1];
      expect(where, line).toBeDefined();
      expect(readme).not.toMatch(absolute(resolve(where!)));
      execSync(line, { stdio: 'pipe', cwd: resolve(where!), env: { ...process.env, KIT: kit } });
      commands.push(line);
    });
    return commands;
  }
  const teamsMap = () => {
    const teams = join(tmp(), 'teams.yaml');
    writeFileSync(teams, `${readFileSync('fixtures/repo-teams.yaml', 'utf8')}Data Science: data_science\n`);
    return teams;
  };
  const patchPaths = (patch: string) => patch.split('\n').filter((line) => line.startsWith('diff --git ')).map((line) => line.split(' ')[2]!);

  it.each([
    ['relative, outside the working directory', (dir: string) => relative(process.cwd(), dir)],
    ['absolute', (dir: string) => dir],
  ])('--repo %s: paths are relative to the repository and git apply from there changes the files', async (_, given) => {
    const repo = join(tmp(), 'outrepo');
    cpSync('fixtures/repo', repo, { recursive: true });
    const out = tmp();
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', given(repo), '--teams-map', teamsMap(), '--out', out, '--fail-on', 'none', '--format', 'json']);
    const paths = patchPaths(readFileSync(join(out, 'fixes', 'repo.patch'), 'utf8'));
    expect(paths).toContain('a/terraform/blueprints.tf');
    expect(paths.filter((path) => path.startsWith('a/..') || path.includes('outrepo'))).toEqual([]);
    expect(applyAsReadmeSays(join(out, 'fixes'))).toHaveLength(1);
    expect(readFileSync(join(repo, 'terraform/blueprints.tf'), 'utf8')).toContain('resource "port_system_blueprint" "team"');
  });

  it('--repo inside a git work tree: the patch is placed from its top, where git apply reads paths', async () => {
    const top = join(tmp(), 'top');
    cpSync('fixtures/repo', join(top, 'sub'), { recursive: true });
    execSync('git init -q', { cwd: top });
    const out = tmp();
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', join(top, 'sub'), '--teams-map', teamsMap(), '--out', out, '--fail-on', 'none', '--format', 'json']);
    expect(patchPaths(readFileSync(join(out, 'fixes', 'repo.patch'), 'utf8'))).toContain('a/sub/terraform/blueprints.tf');
    applyAsReadmeSays(join(out, 'fixes'));
    expect(readFileSync(join(top, 'sub/terraform/blueprints.tf'), 'utf8')).toContain('resource "port_system_blueprint" "team"');
  });

  it('several --repo: one patch per repository, each applied from its own root', async () => {
    const first = join(tmp(), 'infra');
    const second = join(tmp(), 'infra-b');
    cpSync('fixtures/repo', first, { recursive: true });
    cpSync('fixtures/repo', second, { recursive: true });
    const out = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', first, '--repo', second, '--teams-map', teamsMap(), '--out', out, '--fail-on', 'none', '--format', 'json']);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const patches = report.fixes!.files.filter((file) => file.kind === 'repo-patch');
    expect(patches.map((file) => file.path)).toHaveLength(2);
    expect(new Set(patches.map((file) => file.path)).size).toBe(2);
    for (const file of patches) expect(file.path).toMatch(/^repo-infra.*\.patch$/);
    expect(applyAsReadmeSays(join(out, 'fixes')), run.stderr).toHaveLength(2);
    for (const repo of [first, second]) expect(readFileSync(join(repo, 'terraform/blueprints.tf'), 'utf8')).toContain('resource "port_system_blueprint" "team"');
  });
});
