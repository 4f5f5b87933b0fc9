import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { buildFixKit } from '../../src/fix/build-fix-kit.js';
import { readFindingFiles } from '../../src/fix/write-fixes.js';
import { unifiedDiff } from '../../src/fix/unified-diff.js';
import { addedNeeds, constraintChanges, raisedConstraint } from '../../src/fix/version-constraints.js';
import { allowsAtLeast, OWNERSHIP_VERSION, SYSTEM_BLUEPRINT_VERSION, type Version } from '../../src/repo/provider-version.js';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { useJqEngine } from '../support/jq-engine.js';
import type { Report } from '../../src/model/finding.js';
import { repositoryFindings } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

const jq = useJqEngine();

/** The demo org's teams, with the one identifier the fixture map leaves out on purpose supplied. */
const TEAMS_MAP = { 'Platform Team': 'platform', Payments: 'payments', 'SRE On-Call': 'sre_oncall', 'Data Science': 'data_science' };

/** Analyse the demo org with `dir` scanned as its repository, as `analyze --repo` does. */
async function audit(dir: string, teamsMap: Record<string, string> = TEAMS_MAP): Promise<Report & { catalog?: never }> {
  const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { teamsMap, jq });
  return analyze(catalog, await repositoryFindings([dir], catalog));
}

const breakingFileFindings = (report: Report) => report.findings.filter((f) => f.resource.type === 'file' && f.verdict === 'breaks');

/** The demo org analysed with fixtures/repo scanned, and the fix kit built from that report. */
async function fixtureKit() {
  const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { teamsMap: TEAMS_MAP, jq });
  const report = analyze(catalog, await repositoryFindings(['fixtures/repo'], catalog));
  const kit = buildFixKit({ catalog, report, jq, repoFiles: await readFindingFiles(report, ['fixtures/repo']) });
  return { report, kit, patch: kit.files.find((file) => file.kind === 'repo-patch')! };
}

/** A copy named like the fixture, so the patch's paths (fixtures/repo/…) apply from its parent. */
function fixtureCopy(): string {
  const parent = mkdtempSync(join(tmpdir(), 'fixkit-'));
  cpSync('fixtures/repo', join(parent, 'fixtures/repo'), { recursive: true });
  return parent;
}

describe('repo.patch for fixtures/repo', () => {
  it('is accepted by git apply, keeps every untouched line byte for byte, and leaves no breaking file finding', async () => {
    const parent = fixtureCopy();
    const { report, kit, patch } = await fixtureKit();
    expect(breakingFileFindings(report).length).toBeGreaterThan(10);
    expect(patch.path).toBe('repo.patch');
    writeFileSync(join(parent, 'repo.patch'), patch.content);

    execFileSync('git', ['apply', '--check', 'repo.patch'], { cwd: parent });
    execFileSync('git', ['apply', 'repo.patch'], { cwd: parent });

    // Untouched lines: every line of the original that the patch does not remove is still there, in order.
    const inPatch = kit.patched.filter((file) => patch.content.includes(`diff --git a/${file.path} `));
    expect(inPatch).toEqual(kit.patched); // no change of fixtures/repo sits next to a secret
    for (const file of inPatch) {
      const after = readFileSync(join(parent, file.path), 'utf8');
      expect(after).toBe(file.after);
      const removed = new Set(patch.content.split('\n').filter((line) => line.startsWith('-') && !line.startsWith('---')).map((line) => line.slice(1)));
      const kept = file.before.split('\n').filter((line) => !removed.has(line));
      let at = 0;
      const afterLines = after.split('\n');
      for (const line of kept) {
        const found = afterLines.indexOf(line, at);
        expect(found, `${file.path}: ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    }
    // Files the patch does not name are untouched.
    const named = new Set(kit.patched.map((file) => file.path));
    for (const path of ['fixtures/repo/README.md', 'fixtures/repo/.port/resources/port-app-config.yaml', 'fixtures/repo/terraform/versions.tf']) {
      if (!named.has(path)) expect(readFileSync(join(parent, path))).toEqual(readFileSync(path));
    }

    const rescanned = await audit(join(parent, 'fixtures/repo'));
    // Issue 21: the org has not migrated yet, so a line now written for identifiers matches
    // nobody today and starts matching afterwards; that, and nothing else, is left.
    expect(breakingFileFindings(rescanned).filter((f) => !f.reason.includes('written for team identifiers')).map((f) => `${f.location}: ${f.evidence}`)).toEqual([]);
  });

  it('turns a _team port_blueprint into an imported port_system_blueprint, and raises the provider constraint it needs', async () => {
    const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { teamsMap: TEAMS_MAP, jq });
    const report = analyze(catalog, await repositoryFindings(['fixtures/repo'], catalog));
    const kit = buildFixKit({ catalog, report, jq, repoFiles: await readFindingFiles(report, ['fixtures/repo']) });
    const blueprints = kit.patched.find((file) => file.path === 'fixtures/repo/terraform/blueprints.tf')!.after;
    expect(blueprints).toContain('resource "port_system_blueprint" "team" {\n  identifier = "_team"\n}');
    expect(blueprints).toContain('import {\n  to = port_system_blueprint.team\n  id = "_team"\n}');
    expect(blueprints).toContain('removed {\n  from = port_blueprint.team');
    expect(blueprints).toContain('  ownership = { type = "Inherited", path = "domain" }\n  relations');
    expect(blueprints).toContain('  identifier = "domain"\n  ownership = { type = "Direct" }\n');
    // The commented-out line is text, never touched.
    expect(blueprints).toContain('  # team_inheritance = { path = "group" }   (removed last year)');
    // Issue 42: `~> 2.1.0` cannot provide port_system_blueprint (≥ 2.2.0), so the patch raises it.
    const versions = kit.patched.find((file) => file.path === 'fixtures/repo/terraform/versions.tf')!;
    expect(versions.after).toBe(versions.before.replace('version = "~> 2.1.0"', 'version = "~> 2.2"'));
    expect(kit.files.find((file) => file.kind === 'repo-patch')!.content).toContain('-      version = "~> 2.1.0"\n+      version = "~> 2.2"\n');
    expect(report.notes?.find((note) => note.startsWith('review:') && note.includes('fixtures/repo/terraform/'))).toMatch(/^review: .*"~> 2\.1\.0".*≥ 2\.2\.0 for port_system_blueprint for _team/);
  });

  it('without an identifier for "Data Science", its lines stay out of the patch and the kit says --teams-map is missing', async () => {
    const { 'Data Science': _left, ...partial } = TEAMS_MAP;
    const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { teamsMap: partial, jq });
    const report = analyze(catalog, await repositoryFindings(['fixtures/repo'], catalog));
    const kit = buildFixKit({ catalog, report, jq, repoFiles: await readFindingFiles(report, ['fixtures/repo']) });
    const permissions = report.findings.find((f) => f.location === 'fixtures/repo/terraform/permissions.tf:24')!;
    expect(kit.unresolved.find((u) => u.id === permissions.id)?.missing).toMatch(/--teams-map/);
    const changed = kit.files.find((file) => file.kind === 'repo-patch')!.content.split('\n').filter((line) => /^[+-](?![+-])/.test(line));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((line) => line.includes('Data Science'))).toEqual([]);
  });
});

describe('the patched fixtures/repo admits what the patch adds (issue 42)', () => {
  it('its provider and Terraform constraints, read with an HCL parser, admit every resource type and block the patch adds', async () => {
    const parent = fixtureCopy();
    const { patch } = await fixtureKit();
    writeFileSync(join(parent, 'repo.patch'), patch.content);
    execFileSync('git', ['apply', 'repo.patch'], { cwd: parent });

    // What the patch adds to Terraform, read from its added lines: resource types and top-level blocks.
    const added = patch.content.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++')).map((line) => line.slice(1));
    const resources = new Set(added.flatMap((line) => /^resource\s+"([^"]+)"/.exec(line)?.[1] ?? []));
    const blocks = new Set(added.flatMap((line) => /^(import|removed|moved)\s*\{/.exec(line)?.[1] ?? []));
    expect([...resources]).toEqual(['port_system_blueprint']);
    expect([...blocks].sort()).toEqual(['import', 'removed']);
    // The floors the tool knows (src/repo/provider-version.ts; Terraform's changelog for the blocks).
    const providerFloor: Record<string, Version> = { port_system_blueprint: SYSTEM_BLUEPRINT_VERSION, port_blueprint: OWNERSHIP_VERSION };
    const terraformFloor: Record<string, Version> = { import: [1, 5, 0], removed: [1, 7, 0], moved: [1, 1, 0] };

    const config = join(parent, 'fixtures/repo/terraform');
    const parsed = await parseHcl('versions.tf', readFileSync(join(config, 'versions.tf'), 'utf8')) as { terraform: { required_version?: string; required_providers: Record<string, { source: string; version?: string }>[] }[] };
    const port = Object.values(parsed.terraform[0]!.required_providers[0]!).find((p) => p.source === 'port-labs/port-labs')!;
    expect(port.version).toBe('~> 2.2');
    for (const type of resources) expect(allowsAtLeast(port.version!, providerFloor[type]!), type).toBe(true);
    // No required_version is written there: any Terraform, so nothing keeps the blocks out; where one is, the patch raises it (below).
    const required = parsed.terraform[0]!.required_version;
    for (const block of blocks) expect(required === undefined || allowsAtLeast(required, terraformFloor[block]!), block).toBe(true);
  });

  it('raises a required_version that keeps out removed blocks, and names a constraint it cannot read with its exact line', () => {
    const before = 'resource "port_blueprint" "team" {\n  identifier = "_team"\n}\n';
    const after = 'resource "port_system_blueprint" "team" {\n  identifier = "_team"\n}\n\nimport {\n  to = port_system_blueprint.team\n  id = "_team"\n}\n\nremoved {\n  from = port_blueprint.team\n}\n';
    const needs = addedNeeds(before, after);
    expect(needs.map((need) => need.why)).toEqual(['the port_system_blueprint resource', 'import blocks', 'removed blocks']);
    const versions = 'terraform {\n  required_version = "~> 1.5.0"\n  required_providers {\n    port = {\n      source  = "port-labs/port-labs"\n      version = ">= 2.0, != 2.3.1"\n    }\n  }\n}\n';
    const change = constraintChanges([{ path: 'tf/versions.tf', text: versions }], needs);
    // The provider range already admits 2.2.0 and later: untouched. Terraform 1.5.x keeps out removed blocks.
    expect(change.edits.map(({ from, to }) => [from, to])).toEqual([['~> 1.5.0', '~> 1.7']]);
    expect(change.byHand).toEqual([]);
    const unreadable = constraintChanges([{ path: 'tf/versions.tf', text: versions.replace('>= 2.0, != 2.3.1', 'latest') }], needs);
    expect(unreadable.byHand).toEqual([
      'tf/versions.tf:6 `version = "latest"` is no version range this check can read; make it "~> 2.2" or another range that admits 2.2.0, for the port_system_blueprint resource (≥ 2.2.0)',
    ]);
    // Nothing written, nothing to raise: any version is allowed.
    expect(constraintChanges([{ path: 'tf/main.tf', text: before }], needs)).toEqual({ edits: [], byHand: [] });
    // A change that adds nothing versioned needs nothing.
    expect(addedNeeds('teams = ["Payments"]\n', 'teams = ["payments"]\n')).toEqual([]);
  });

  it('the kit\'s README and docs/fix-kit.md say what the patch does to the constraint, as it does it on fixtures/repo', async () => {
    const { kit, patch: patchFile } = await fixtureKit();
    const patch = patchFile.content;
    const from = /^-\s*version\s*=\s*"([^"]+)"$/m.exec(patch)?.[1];
    const to = /^\+\s*version\s*=\s*"([^"]+)"$/m.exec(patch)?.[1];
    expect([from, to]).toEqual(['~> 2.1.0', '~> 2.2']);
    const claim = `\`${from}\` becomes \`${to}\``;
    const kitReadme = kit.files.find((file) => file.kind === 'readme' && file.path === 'README.md')!.content;
    expect(kitReadme).toContain(`raises the provider's \`version\` constraint where it is lower (${claim})`);
    const section = readFileSync('docs/fix-kit.md', 'utf8');
    expect(section.replace(/\s+/g, ' ')).toContain(`the provider constraint raised where it is lower (${claim})`);
  });

  it('a floor with a patch version keeps the major bound', () => {
    expect(raisedConstraint([2, 1, 4])).toBe('>= 2.1.4, < 3.0.0');
    expect(allowsAtLeast(raisedConstraint([2, 1, 4]), [2, 1, 4])).toBe(true);
    expect(allowsAtLeast(raisedConstraint([2, 1, 4]), [3, 0, 0])).toBe(false);
  });
});

describe('unifiedDiff', () => {
  it('keeps a missing final newline and CRLF line endings as they are', () => {
    const text = 'a = 1\r\nteams = ["X"]\r\nb = 2';
    const diff = unifiedDiff('f.tf', text, [{ start: text.indexOf('"X"'), end: text.indexOf('"X"') + 3, text: '"x"' }]);
    expect(diff).toBe('diff --git a/f.tf b/f.tf\n--- a/f.tf\n+++ b/f.tf\n@@ -1,3 +1,3 @@\n a = 1\r\n-teams = ["X"]\r\n+teams = ["x"]\r\n b = 2\n\\ No newline at end of file\n');
  });
});

describe('system blueprints in Pulumi', () => {
  it('an inline _user Blueprint becomes an imported SystemBlueprint without the attributes it does not take', async () => {
    const text = 'import * as port from "@port-labs/port";\nexport const users = new port.Blueprint("users", { identifier: "_user", title: "User" });\n';
    const { pulumiSystemBlueprintEdits } = await import('../../src/fix/system-blueprint.js');
    const { applyEdits } = await import('../../src/fix/unified-diff.js');
    const edits = pulumiSystemBlueprintEdits('index.ts', text, text.indexOf('port.Blueprint'), 'port.SystemBlueprint')!;
    expect(applyEdits(text, edits)).toBe('import * as port from "@port-labs/port";\nexport const users = new port.SystemBlueprint("users", { identifier: "_user" }, { import: "_user" });\n');
  });
});

describe('secrets next to a change', () => {
  it('a file whose patch would quote a secret is left out of repo.patch, said so, and still fixed by --fix', async () => {
    const { repoPatch } = await import('../../src/fix/repo-patch.js');
    const text = 'PORT_CLIENT_SECRET="s3cr3t-value-123"\ncurl -d \'{"teams": ["Payments"]}\'\n';
    const finding = { id: 'f1', kind: 'automatic' as const, category: 'team-permission-identifiers' as const, resource: { type: 'file' as const, identifier: 'r/a.sh' }, location: 'r/a.sh:2', evidence: '"teams": ["Payments"]', reason: '', suggestion: '', rewrite: '"teams": ["payments"]', verdict: 'breaks' as const };
    const patch = repoPatch([finding], [{ path: 'r/a.sh', text }]);
    expect(patch.files).toEqual([]);
    expect(patch.unresolved).toEqual([{ id: 'f1', missing: expect.stringMatching(/next to a secret in r\/a.sh/) }]);
    expect(patch.patched[0]!.after).toBe(text.replace('"Payments"', '"payments"'));
    // Without the secret, the same change is in the patch.
    expect(repoPatch([finding], [{ path: 'r/a.sh', text: text.replace(/^PORT.*\n/, 'echo\n') }]).files[0]?.findings).toEqual(['f1']);
  });

  // Issue 32 item 3: a value known by its shape is a secret whatever key (or none) holds it.
  const GHP = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
  const shaped: [string, string][] = [
    ['a GitHub token', `GH=${GHP}`],
    ['a Slack webhook URL', `notify: https://hooks.slack.com/services/T0000/B0000/${'x'.repeat(24)}`],
    ['a JWT', `claims: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${'s'.repeat(43)}`],
  ];
  it.each(shaped)('%s within three lines of a change is left out of repo.patch and listed with the reason', async (what, line) => {
    const { repoPatch } = await import('../../src/fix/repo-patch.js');
    const text = `${line}\nx=1\ny=2\ncurl -d '{"teams": ["Payments"]}'\n`;
    const finding = { id: 'f1', kind: 'automatic' as const, category: 'team-permission-identifiers' as const, resource: { type: 'file' as const, identifier: 'r/a.sh' }, location: 'r/a.sh:4', evidence: '"teams": ["Payments"]', reason: '', suggestion: '', rewrite: '"teams": ["payments"]', verdict: 'breaks' as const };
    const patch = repoPatch([finding], [{ path: 'r/a.sh', text }]);
    expect(patch.files).toEqual([]);
    expect(patch.unresolved).toEqual([{ id: 'f1', missing: `a change next to ${what} in r/a.sh: it is left out of repo.patch so the secret is not copied; run with --fix to apply it in place, or edit by hand` }]);
    expect(JSON.stringify(patch.unresolved)).not.toContain(line.split(/[=:] ?/)[1]!.slice(-12));
    // Four lines away it is outside the patch's context: the change is in the patch, the token is not.
    const far = `${line}\nw=0\nx=1\ny=2\ncurl -d '{"teams": ["Payments"]}'\n`;
    const kept = repoPatch([{ ...finding, location: 'r/a.sh:5' }], [{ path: 'r/a.sh', text: far }]);
    expect(kept.files[0]?.findings).toEqual(['f1']);
    expect(kept.files[0]!.content).not.toContain(line);
  });
});

