import { describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';
import { repoContext } from '../../src/repo/context.js';
import { analyzePulumi } from '../../src/repo/pulumi.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { brief, judged } from './helpers.js';

const ctx = repoContext(
  buildCatalog({
    format: SNAPSHOT_FORMAT,
    organization: { id: 'o', name: 'o' },
    blueprints: [
      { identifier: 'domain', title: 'Domain', schema: { properties: {} } },
      { identifier: 'service', title: 'Service', schema: { properties: {} }, relations: { domain: { target: 'domain', many: false } }, teamInheritance: { path: 'domain' } },
      { identifier: 'incident', title: 'Incident', schema: { properties: {} }, ownership: { type: 'Direct' } },
      { identifier: 'plain', title: 'Plain', schema: { properties: {} } },
    ],
    entities: { domain: [], service: [], incident: [], plain: [] },
  }),
);

describe('a port_blueprint that declares no ownership while its blueprint has (or gets) one', () => {
  test('Terraform: the next apply strips it; the finding gives the ownership block to add', () => {
    const { findings } = judged(analyzeTerraform, 
      sourceText(
        'infra/bp.tf',
        `resource "port_blueprint" "service" {
  identifier = "service"
  title      = "Service"
}
resource "port_blueprint" "incident" {
  identifier = "incident"
  title      = "Incident"
}
resource "port_blueprint" "plain" {
  identifier = "plain"
  title      = "Plain"
}
resource "port_blueprint" "domain" {
  identifier = "domain"
  title      = "Domain"
  ownership  = { type = "Direct" }
}`,
      ),
      ctx,
    );
    expect(brief(findings)).toEqual([
      { at: 'infra/bp.tf:1', category: 'external-ownership', rewrite: 'ownership = { type = "Inherited", path = "domain" }', verdict: 'breaks' },
      { at: 'infra/bp.tf:5', category: 'external-ownership', rewrite: 'ownership = { type = "Direct" }', verdict: 'breaks' },
    ]);
    expect(findings[0]!.reason).toContain('strips it');
  });

  test('Pulumi: the same, written in the program\'s syntax', () => {
    const { findings } = judged(analyzePulumi, 
      sourceText('index.ts', `import * as port from "@port-labs/port";\nnew port.Blueprint("service", {\n  identifier: "service",\n  title: "Service",\n});\n`),
      'js',
      ctx,
    );
    expect(brief(findings)).toEqual([{ at: 'index.ts:2', category: 'external-ownership', rewrite: 'ownership: { type: "Inherited", path: "domain" }', verdict: 'breaks' }]);
  });
});

describe('an identifier given by a variable', () => {
  test('the ownership finding stays on the resource, with no rewrite placed in the variable\'s file', async () => {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { scanRepositories } = await import('../../src/repo/scan.js');
    const dir = await mkdtemp(join(tmpdir(), 'tma-idvar-'));
    await mkdir(join(dir, 'infra'));
    await writeFile(join(dir, 'infra/main.tf'), 'variable "bp" {\n  type = string\n}\nresource "port_blueprint" "svc" {\n  identifier = var.bp\n  title      = "Service"\n}\n');
    await writeFile(join(dir, 'infra/terraform.tfvars'), 'bp = "service"\n');
    const { findings } = await scanRepositories([dir], { catalog: undefined });
    expect(findings).toEqual([]);
    const scanned = await scanRepositories([dir], {
      catalog: buildCatalog({ format: SNAPSHOT_FORMAT, organization: { id: 'o', name: 'o' }, blueprints: [{ identifier: 'domain', title: 'D', schema: { properties: {} } }, { identifier: 'service', title: 'S', schema: { properties: {} }, relations: { domain: { target: 'domain', many: false } }, teamInheritance: { path: 'domain' } }], entities: {} }),
    });
    expect(scanned.findings.map((f) => [f.location.split('/').slice(-2).join('/'), f.rewrite])).toEqual([['infra/main.tf:4', undefined]]);
    expect(scanned.findings[0]!.suggestion).toContain('ownership {type: "Inherited", path: "domain"}');
  });
});

describe("an integration's default blueprints.json", () => {
  test('is sent once at install, not on every apply: no "next apply strips it" finding', async () => {
    const { analyzeJsonPayload } = await import('../../src/repo/api-scripts.js');
    const text = `[{"identifier": "service", "title": "Service", "schema": {"properties": {}}}]`;
    expect(judged(analyzeJsonPayload, sourceText('.port/resources/blueprints.json', text), ctx).findings).toEqual([]);
  });
});

describe('a blueprint JSON file whose entities the repository gives teams (the migration gives it Direct ownership)', () => {
  const write = async (blueprint: { name: string; text: string }) => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'tma-json-direct-'));
    await writeFile(join(dir, 'port.yml'), '- identifier: cart\n  blueprint: service\n  team: Platform Team\n');
    await writeFile(join(dir, blueprint.name), blueprint.text);
    return dir;
  };

  test('JSON is sent once, so it gets no "next apply strips it" finding; the entity file still breaks', async () => {
    const { scanRepositories } = await import('../../src/repo/scan.js');
    const dir = await write({ name: 'service.blueprint.json', text: '{ "identifier": "service", "title": "Service", "schema": { "properties": {} }, "relations": {} }\n' });
    const { findings } = await scanRepositories([dir], { catalog: undefined });
    expect(findings.map((f) => [f.location.split('/').slice(-1)[0], f.category])).toEqual([['port.yml:3', 'external-ownership']]);
  });

  test('the same blueprint in Terraform is applied every time: it gets the ownership block to add', async () => {
    const { scanRepositories } = await import('../../src/repo/scan.js');
    const dir = await write({ name: 'main.tf', text: 'resource "port_blueprint" "service" {\n  identifier = "service"\n  title      = "Service"\n}\n' });
    const { findings } = await scanRepositories([dir], { catalog: undefined });
    expect(findings.map((f) => [f.location.split('/').slice(-1)[0], f.category, f.rewrite])).toContainEqual(['main.tf:1', 'external-ownership', 'ownership = { type = "Direct" }']);
  });
});
