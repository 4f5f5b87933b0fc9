import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { InputError } from '../../src/errors.js';
import { ignoreFileRules } from '../../src/repo/gitignore.js';
import { classifyPath, displayRoot, scanRepositories } from '../../src/repo/scan.js';
import { brief } from './helpers.js';

/**
 * The demo org: teams "Platform Team" → platform, "Payments" → payments, "SRE On-Call" → sre_oncall,
 * "Data Science" (identifier not known); "domain" and "service" get Direct ownership.
 */
const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'));

describe('scanRepositories on fixtures/repo', () => {
  test('finds exactly the expected places, with lines, categories and rewrites', async () => {
    const scan = await scanRepositories(['fixtures/repo'], { catalog });
    const at = (path: string) => `fixtures/repo/${path}`;
    expect(brief(scan.findings)).toEqual([
      { at: at('.github/port-app-config.yml:12'), category: 'integration-mapping', rewrite: `team: '"payments"'`, verdict: 'breaks' },
      { at: at('.port/resources/blueprints.json:5'), category: 'external-ownership', rewrite: '"ownership": {"type": "Inherited", "path": "service"}', verdict: 'breaks' },
      { at: at('.port/resources/port-app-config.yaml:10'), category: 'integration-mapping', verdict: 'review' },
      { at: at('payloads/page-permissions.json:5'), category: 'team-permission-identifiers', verdict: 'breaks' },
      { at: at('pulumi-py/__main__.py:7'), category: 'external-ownership', rewrite: 'ownership=port.BlueprintOwnershipArgs(type="Inherited", path="group")', verdict: 'breaks' },
      { at: at('pulumi-py/__main__.py:10'), category: 'team-permission-identifiers', rewrite: '"teams": ["payments"]', verdict: 'breaks' },
      { at: at('pulumi-py/__main__.py:13'), category: 'external-ownership', verdict: 'breaks' },
      { at: at('pulumi-py/__main__.py:15'), category: 'external-ownership', rewrite: 'ownership={"type": "Inherited", "path": "service"}', verdict: 'breaks' },
      { at: at('pulumi-py/__main__.py:20'), category: 'calculation-property', rewrite: `calculation='.team | index("sre_oncall") != null'`, verdict: 'breaks' },
      { at: at('pulumi-ts/index.ts:6'), category: 'external-ownership', rewrite: 'ownership: { type: "Inherited", path: "domain" }', verdict: 'breaks' },
      { at: at('pulumi-ts/index.ts:11'), category: 'external-ownership', rewrite: 'port.SystemBlueprint', verdict: 'breaks' },
      { at: at('pulumi-ts/index.ts:16'), category: 'team-permission-identifiers', rewrite: 'teams: ["sre_oncall"]', verdict: 'breaks' },
      { at: at('pulumi-ts/index.ts:27'), category: 'action-dynamic-permission', rewrite: `'.results.approvers.entities[].team | contains(["payments"])'`, verdict: 'breaks' },
      { at: at('scripts/bootstrap.sh:6'), category: 'external-ownership', rewrite: '"ownership": {"type": "Inherited", "path": "domain"}', verdict: 'breaks' },
      { at: at('scripts/bootstrap.sh:10'), category: 'team-permission-identifiers', rewrite: '"teams": ["platform"]', verdict: 'breaks' },
      { at: at('scripts/entities.py:10'), category: 'external-ownership', rewrite: '"team": ["payments"]', verdict: 'breaks' },
      { at: at('scripts/permissions.js:8'), category: 'team-permission-identifiers', rewrite: 'teams: ["sre_oncall", "payments"]', verdict: 'breaks' },
      { at: at('services/checkout/port.yml:4'), category: 'external-ownership', rewrite: 'team: platform', verdict: 'breaks' },
      { at: at('services/docs/port.yaml:6'), category: 'external-ownership', rewrite: 'team:\n    - sre_oncall\n    - payments', verdict: 'breaks' },
      { at: at('terraform/blueprints.tf:5'), category: 'external-ownership', rewrite: 'ownership = { type = "Inherited", path = "domain" }', verdict: 'breaks' },
      { at: at('terraform/blueprints.tf:13'), category: 'external-ownership', rewrite: 'ownership = { type = "Direct" }', verdict: 'breaks' },
      { at: at('terraform/blueprints.tf:24'), category: 'external-ownership', rewrite: 'resource "port_system_blueprint" "team" {', verdict: 'breaks' },
      { at: at('terraform/blueprints.tf:29'), category: 'external-ownership', rewrite: 'ownership = { type = "Inherited", path = "service" }', verdict: 'breaks' },
      { at: at('terraform/blueprints.tf:36'), category: 'calculation-property', rewrite: 'calculation = ".team | index(\\"platform\\") != null"', verdict: 'breaks' },
      { at: at('terraform/integrations.tf:7'), category: 'webhook-mapping', verdict: 'review' },
      { at: at('terraform/integrations.tf:17'), category: 'integration-mapping', rewrite: 'team = "\\"platform\\""', verdict: 'breaks' },
      { at: at('terraform/integrations.tf:29'), category: 'page-widget', rewrite: '{"property": "$team", "operator": "containsAny", "value": ["sre_oncall"]}', verdict: 'breaks' },
      { at: at('terraform/permissions.tf:9'), category: 'team-permission-identifiers', rewrite: '"teams" : ["platform", "payments"]', verdict: 'breaks' },
      { at: at('terraform/permissions.tf:16'), category: 'team-permission-identifiers', rewrite: 'teams = [port_team.sre.identifier]', verdict: 'breaks' },
      { at: at('terraform/permissions.tf:24'), category: 'team-permission-identifiers', verdict: 'breaks' },
      { at: at('terraform/permissions.tf:31'), category: 'external-ownership', rewrite: 'teams      = ["payments"]', verdict: 'breaks' },
      // Issue 21: an identifier before the migration starts matching once teams are identifiers.
      { at: at('terraform/permissions.tf:46'), category: 'action-dynamic-permission', verdict: 'breaks' },
      {
        at: at('terraform/permissions.tf:50'),
        category: 'action-dynamic-permission',
        rewrite: '".results.oncall.entities | map(.team) | flatten | index(\\"sre_oncall\\") != null"',
        verdict: 'breaks',
      },
    ]);
    expect(scan.incomplete).toEqual([
      // Issue 38: a file of a kind the scan judges (JSON) that it cannot read as text keeps the gate from passing.
      { resource: at('payloads/blob.json'), reason: 'could not be read (a NUL byte: binary, not text); the file was not checked' },
      {
        resource: at('services/broken/port.yml:3'),
        reason: 'could not be read (line 3, column 1): not valid YAML: missed comma between flow collection entries; the file was not checked',
      },
    ]);
    expect(scan.notes).toEqual([
      // Issue 41: how much the scan saw (the binary payload and the port.yml that is no YAML are files it judges but could not read).
      'files of repository fixtures/repo: 21 found, 19 of kinds the scan judges, 17 read whole',
      // Issue 30: what the files say of the migration state, and that the org given decides.
      expect.stringMatching(/^migration state of repository fixtures\/repo: its files read as not migrated: Blueprint manages _user, .*\(fixtures\/repo\/pulumi-ts\/index\.ts:11\); port_blueprint manages _team, .*; although blueprint pullRequest declares ownership .*; the org Acme Payments decides: it has not migrated$/),
      // The Pulumi programs pin no package version (no manifest next to them): checked by hand.
      expect.stringMatching(/^review: Pulumi project fixtures\/repo\/pulumi-py\/: no pinned version .* Allow 2\.13\.4 or later/),
      expect.stringMatching(/^review: Pulumi project fixtures\/repo\/pulumi-ts\/: no pinned version .* Allow 2\.2\.0 or later/),
      expect.stringMatching(/^review: Terraform configuration fixtures\/repo\/terraform\/: the provider constraint "~> 2\.1\.0" \(fixtures\/repo\/terraform\/versions\.tf:5\)/),
    ]);
    // Gitignored and prose files never produce a finding (the leave-outs, which hide only untracked files in git: git-file-set.test.ts).
    const files = new Set(scan.findings.map((f) => f.resource.identifier));
    for (const skipped of ['terraform/overrides.local.tf', 'secrets/ignored.tf', 'README.md', 'scripts/report.py', 'package.json']) {
      expect(files.has(at(skipped))).toBe(false);
    }
  });

  test('without an org, titles with spaces are still titles but no identifier is invented', async () => {
    const scan = await scanRepositories(['fixtures/repo']);
    const checkout = scan.findings.find((f) => f.location === 'fixtures/repo/services/checkout/port.yml:4')!;
    expect(checkout.rewrite).toBeUndefined();
    expect(checkout.suggestion).toContain('the identifier of "Platform Team" is not known yet');
    expect(scan.findings.some((f) => f.location === 'fixtures/repo/terraform/blueprints.tf:13')).toBe(false);
  });
});

describe('how many files the scan saw (issue 41)', () => {
  test('each repository gets one line: the files found, those of kinds it judges, those read; ignored folders and the run\'s own files are not counted', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tma-repo-'));
    const files: Record<string, string> = {
      'README.md': '# docs\n',
      'docs/a.md': 'a\n',
      'docs/b.txt': 'b\n',
      'src/app.ts': 'export const a = 1;\n',
      'infra/main.tf': 'resource "null_resource" "x" {}\n',
      'node_modules/pkg/index.js': 'module.exports = 1;\n',
      'node_modules/pkg/main.tf': 'resource "null_resource" "y" {}\n',
      'out/report.json': '{}\n',
      'out/summary.md': 'x\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const other = await mkdtemp(join(tmpdir(), 'tma-repo-'));
    await writeFile(join(other, 'main.tf'), 'resource "null_resource" "z" {}\n');
    const scan = await scanRepositories([root, other], { ownPaths: [join(root, 'out')] });
    const counts = scan.notes.filter((note) => note.startsWith('files of repository'));
    expect(counts).toEqual([
      `files of repository ${root.split('/').pop()}: 5 found, 2 of kinds the scan judges, 2 read whole`,
      `files of repository ${other.split('/').pop()}: 1 found, 1 of kinds the scan judges, 1 read whole`,
    ]);
    // A clean scan: nothing else tells the two apart.
    expect(scan.findings).toEqual([]);
  });
});

describe('walking', () => {
  test('a missing directory is an InputError naming it', async () => {
    await expect(scanRepositories(['fixtures/no-such-repo'])).rejects.toThrow(InputError);
    await expect(scanRepositories(['fixtures/no-such-repo'])).rejects.toThrow('--repo fixtures/no-such-repo: no such directory');
  });

  test('symbolic links out of the root and files over 5 MB are not read, and the scan is incomplete', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'tma-outside-'));
    await writeFile(join(outside, 'leak.tf'), 'resource "port_blueprint" "x" {\n  team_inheritance = { path = "a" }\n}\n');
    const root = await mkdtemp(join(tmpdir(), 'tma-repo-'));
    await mkdir(join(root, 'tf'));
    await symlink(join(outside, 'leak.tf'), join(root, 'tf', 'leak.tf'));
    await symlink(outside, join(root, 'linked-dir'));
    await writeFile(join(root, 'tf', 'inside.tf'), 'resource "port_blueprint" "y" {\n  team_inheritance = { path = "b" }\n}\n');
    await symlink(join(root, 'tf', 'inside.tf'), join(root, 'tf', 'alias.tf'));
    await writeFile(join(root, 'huge.json'), `{"a": "${'x'.repeat(5 * 1024 * 1024)}"}`);
    const scan = await scanRepositories([root]);
    const name = root.split('/').pop()!;
    expect(scan.findings.map((f) => f.location)).toEqual([`${name}/tf/alias.tf:2`, `${name}/tf/inside.tf:2`]);
    expect(scan.notes.filter((note) => !note.startsWith('review:') && !note.startsWith('migration state'))).toEqual([
      // Issue 23: a link to a folder is said too, not only a link to a file.
      `${name}/linked-dir: a symbolic link to a folder outside the repository, not followed; the files there were not scanned`,
      // The link out of the root and the file over the limit are judged kinds, found but not read.
      `files of repository ${name}: 5 found, 4 of kinds the scan judges, 2 read whole`,
    ]);
    // Issue 38: a file the scan would judge but cannot read whole is a gap, never a note.
    expect(scan.incomplete).toEqual([
      { resource: `${name}/huge.json`, reason: 'could not be read (5242889 bytes, over the 5 MB limit; --max-file-size raises it); the file was not checked' },
      { resource: `${name}/tf/leak.tf`, reason: 'could not be read (a symbolic link to outside the repository); the file was not checked' },
    ]);
    const raised = await scanRepositories([root], { maxFileBytes: 6 * 1024 * 1024 });
    expect(raised.incomplete.map((item) => item.resource)).toEqual([`${name}/tf/leak.tf`]);
    // Both files are one configuration: one advice line, since it writes ownership and names no provider version.
    expect(scan.notes.filter((note) => note.startsWith('review:'))).toEqual([expect.stringContaining(`configuration ${name}/tf/: no version constraint`)]);
  });

  test("the run's own paths are skipped silently; a file that only claims to be one of our documents is judged (issue 38)", async () => {
    const root = await mkdtemp(join(tmpdir(), 'tma-own-'));
    const name = root.split('/').pop()!;
    const payload = (extra: Record<string, unknown>) =>
      JSON.stringify({ ...extra, identifier: 'svc', teamInheritance: { path: 'domain' }, entities: { register: { teams: ['Platform Team'] } } }, null, 2);
    for (const dir of ['ci', 'audit', 'old', 'api']) await mkdir(join(root, dir));
    // Given as --snapshot, --baseline, --teams-map and --out: never read, whatever they hold.
    await writeFile(join(root, 'ci', 'org.json'), payload({}));
    await writeFile(join(root, 'ci', 'baseline.json'), payload({}));
    await writeFile(join(root, 'ci', 'teams.json'), '{"Platform Team": "platform"}');
    await writeFile(join(root, 'audit', 'report.json'), payload({}));
    // Not given to the run: a `format` any file can claim is no proof, so they are payloads like any other.
    await writeFile(join(root, 'old', 'org-snapshot.json'), payload({ format: 'org-snapshot/1' }));
    await writeFile(join(root, 'old', 'report.json'), payload({ format: 'impact-report/1' }));
    await writeFile(join(root, 'old', 'accepted.json'), payload({ format: 'teams-migration-audit-baseline/1' }));
    await writeFile(join(root, 'old', 'review.json'), payload({ format: 'teams-migration-audit/review-state/1' }));
    await writeFile(join(root, 'old', 'scan.sarif.json'), payload({ $schema: 'https://json.schemastore.org/sarif-2.1.0.json' }));
    await writeFile(join(root, 'old', 'bare-sarif.json'), payload({ version: '2.1.0', runs: [] }));
    await writeFile(join(root, 'api', 'blueprint.json'), payload({ format: 'org-snapshot/2', version: '2.1.0' }));
    await symlink(join(root, 'ci', 'org.json'), join(root, 'api', 'alias.json'));
    const own = ['ci/org.json', 'ci/baseline.json', 'ci/teams.json', 'audit', 'ci/not-written-yet.json'].map((p) => join(root, p));
    const scan = await scanRepositories([root], { ownPaths: own });
    const judged = ['old/accepted.json', 'old/bare-sarif.json', 'old/org-snapshot.json', 'old/report.json', 'old/review.json', 'old/scan.sarif.json', 'api/blueprint.json'];
    expect(new Set(scan.findings.map((f) => f.resource.identifier))).toEqual(new Set(judged.map((p) => `${name}/${p}`)));
    expect(scan.notes.filter((note) => note.includes('audit document'))).toEqual([]);
    // Without the own paths, the same files are payloads (and the alias is read through its link).
    const unaware = await scanRepositories([root]);
    expect(new Set(unaware.findings.map((f) => f.resource.identifier))).toEqual(
      new Set([...judged, 'api/alias.json', 'audit/report.json', 'ci/baseline.json', 'ci/org.json'].map((p) => `${name}/${p}`)),
    );
    // `--out .` (the root itself) does not hide the checkout.
    expect((await scanRepositories([root], { ownPaths: [root] })).findings).toHaveLength(unaware.findings.length);
  });

  test('.gitignore lines are read as git reads them: negations apply, braces are literal', () => {
    const rules = ignoreFileRules('# c\nsecrets/\n*.local.tf\n/build\ndocs/gen\n!keep.local.tf\ninfra/{main,x}.tf\n');
    if ('refused' in rules) throw new Error(rules.refused);
    const ignored = ['secrets/a.tf', 'x/secrets/a.tf', 'a.local.tf', 'build/x.tf', 'docs/gen/x.tf', 'infra/{main,x}.tf'].filter((path) => rules.ignores(path));
    expect(ignored).toEqual(['secrets/a.tf', 'x/secrets/a.tf', 'a.local.tf', 'build/x.tf', 'docs/gen/x.tf', 'infra/{main,x}.tf']);
    expect(['keep.local.tf', 'x/build/y.tf', 'infra/main.tf', 'infra/x.tf', 'main.tf'].filter((path) => rules.ignores(path))).toEqual([]);
  });

  test('file kinds come from names; paths are shown relative to the directory as given', () => {
    expect(['a/main.tf', 'port.yml', 'x/port.yaml', '.github/port-app-config.yml', '.port/resources/port-app-config.json', 'a.py', 'b.mjs', 'c.d.ts', 'run.sh', 'notes.md'].map(classifyPath)).toEqual([
      'terraform', 'entity-file', 'entity-file', 'mapping-config', 'mapping-config', 'python', 'js', undefined, 'shell', undefined,
    ]);
    expect([displayRoot('fixtures/repo/'), displayRoot('.'), displayRoot('/abs/path/checkout')]).toEqual(['fixtures/repo', '', 'checkout']);
  });
});
