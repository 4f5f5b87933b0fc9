import { describe, expect, test } from 'vitest';
import { allowsPackageVersion, providerAdvice, pulumiFloor } from '../../src/repo/provider-version.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { temporaryRepository } from './helpers.js';

/**
 * Issue 22 item C: a Pulumi project gets the same one-per-project provider note as a Terraform
 * configuration, with the floors in Pulumi package versions (the release that first bridges the
 * Terraform provider version the migration's changes need).
 */
const TS_TEAM = `import * as port from "@port-labs/port";
new port.SystemBlueprint("team", { identifier: "_team", properties: {} });
`;
const PY_PERMISSIONS = `import port_pulumi as port
port.BlueprintPermissions("svc", blueprint_identifier="service", entities={"update": {"teams": ["payments"]}})
`;
const TS_PLAIN = `import * as port from "@port-labs/port";
new port.Action("hello", { identifier: "hello", title: "Hello", webhookMethod: { url: "https://example.com" } });
`;

async function notesOf(files: Record<string, string>): Promise<string[]> {
  const dir = await temporaryRepository(files, 'pulumi-version-');
  return (await scanRepositories([dir])).notes.filter((note) => note.includes('Pulumi'));
}
const pkg = (version: string) => JSON.stringify({ name: 'infra', dependencies: { '@port-labs/port': version, '@pulumi/pulumi': '^3.0.0' } });

describe('Pulumi provider versions: advice, not findings', () => {
  test('the floors map to the Pulumi releases that bridge them (pulumi-port provider/go.mod per tag)', () => {
    expect(pulumiFloor([2, 2, 0])).toEqual([2, 2, 0]);
    expect(pulumiFloor([2, 5, 0])).toEqual([2, 6, 0]);
    expect(pulumiFloor([2, 15, 1])).toEqual([2, 16, 0]);
  });

  test.each([
    ['^2.1.0', true],
    ['~2.1.0', false],
    ['~2', true],
    ['2.1.x', false],
    ['2.x', true],
    ['2.1.7', false],
    ['2.16.0', true],
    ['>=2.0.0 <2.15.0', false],
    ['>=2.0.0 <3', true],
    ['~2.1.0 || ^2.16.0', true],
    ['*', true],
    ['==2.14.4', false],
    ['~=2.14', true],
    ['~=2.14.0', false],
    ['>=2.16,<3', true],
    ['latest', undefined],
  ] as const)('%s allows 2.16.0: %s', (range, expected) => {
    expect(allowsPackageVersion(range, [2, 16, 0])).toBe(expected);
  });

  test('a pinned @port-labs/port below the floor gets one note per project; one that allows it gets none', async () => {
    const below = await notesOf({ 'infra/Pulumi.yaml': 'name: infra\nruntime: nodejs\n', 'infra/index.ts': TS_TEAM, 'infra/package.json': pkg('~2.1.0') });
    expect(below).toHaveLength(1);
    expect(below[0]).toMatch(/^review: Pulumi project \S*infra\//);
    expect(below[0]).toContain('"~2.1.0"');
    expect(below[0]).toContain('≥ 2.2.0');
    expect(await notesOf({ 'infra/index.ts': TS_TEAM, 'infra/package.json': pkg('^2.1.0') })).toEqual([]);
  });

  test('requirements.txt and pyproject.toml pins are read; the floor is in Pulumi versions', async () => {
    const pinned = await notesOf({ 'py/__main__.py': PY_PERMISSIONS, 'py/requirements.txt': 'pulumi>=3.0.0,<4.0.0\nport_pulumi==2.14.4\n' });
    expect(pinned).toHaveLength(1);
    expect(pinned[0]).toContain('≥ 2.16.0');
    expect(pinned[0]).toContain('"==2.14.4" (' );
    expect(await notesOf({ 'py/__main__.py': PY_PERMISSIONS, 'py/pyproject.toml': '[project]\nname = "infra"\ndependencies = ["pulumi>=3", "port-pulumi>=2.16,<3"]\n' })).toEqual([]);
    // A description that names the package is no requirement.
    expect(await notesOf({ 'py/__main__.py': PY_PERMISSIONS, 'py/pyproject.toml': '[project]\ndescription = "port_pulumi stack"\ndependencies = ["port_pulumi>=2.16"]\n' })).toEqual([]);
    const poetry = await notesOf({ 'py/__main__.py': PY_PERMISSIONS, 'py/pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.11"\nport_pulumi = "~2.14"\n' });
    expect(poetry).toHaveLength(1);
  });

  test('unpinned or with no manifest: the note says to check the version in use; a project touching nothing gets none', async () => {
    const unpinned = await notesOf({ 'infra/index.ts': TS_TEAM, 'infra/package.json': pkg('latest') });
    expect(unpinned).toHaveLength(1);
    expect(unpinned[0]).toMatch(/check that the version in use is new enough/);
    expect(await notesOf({ 'infra/index.ts': TS_TEAM })).toHaveLength(1);
    expect(await notesOf({ 'infra/index.ts': TS_PLAIN, 'infra/package.json': pkg('2.0.0') })).toEqual([]);
  });

  test('the deciding is shared: an unreadable constraint is as unknowable as none, for Terraform as for Pulumi', () => {
    const needs = [{ floor: [2, 2, 0] as [number, number, number], why: 'port_system_blueprint for _team', at: 'main.tf:3' }];
    expect(providerAdvice('infra', [{ needs, constraint: { text: 'latest', at: 'versions.tf:4' } }])).toMatch(/^review: Terraform configuration infra\/: the provider constraint "latest" \(versions.tf:4\) is no version range this check can read/);
    expect(providerAdvice('infra', [{ needs, constraint: { text: '>= 2.2.0', at: 'versions.tf:4' } }])).toBeUndefined();
  });

  test('a project is the folder of its Pulumi.yaml: a program in src/ is judged with the manifest beside Pulumi.yaml', async () => {
    const project = { 'infra/Pulumi.yaml': 'name: infra\nruntime: nodejs\nmain: src/\n', 'infra/src/index.ts': TS_TEAM };
    expect(await notesOf({ ...project, 'infra/package.json': pkg('^2.2.0') })).toEqual([]);
    const below = await notesOf({ ...project, 'infra/package.json': pkg('2.1.7') });
    expect(below).toHaveLength(1);
    expect(below[0]).toMatch(/^review: Pulumi project \S*\/infra\/: the Port package version "2.1.7"/);
  });
});
