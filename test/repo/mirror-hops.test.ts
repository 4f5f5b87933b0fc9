import { describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { temporaryRepository } from './helpers.js';

const TEAMS = [{ name: 'Platform Team', identifier: 'platform' }];

async function scan(files: Record<string, string>, org: Partial<OrgSnapshot> = {}) {
  const dir = await temporaryRepository(files, 'tma-hops-');
  const catalog = buildCatalog({ format: SNAPSHOT_FORMAT, organization: { id: 'o', name: 'o' }, blueprints: [], teams: TEAMS, ...org });
  const name = dir.split('/').pop()!;
  return (await scanRepositories([dir], { catalog })).findings.map((f) => `${f.location.slice(name.length + 1)} ${f.category} ${f.verdict}`);
}

const DEPLOYMENT = `resource "port_blueprint" "deployment" {
  identifier = "deployment"
  title      = "Deployment"
  relations = {
    "workload" = { title = "Workload", target = port_blueprint.workload.identifier }
  }
  mirror_properties = {
    "service_team" = { title = "Service team", path = "workload.service.$team" }
  }
  calculation_properties = {
    "is_platform" = {
      title       = "Platform?"
      type        = "boolean"
      calculation = ".properties.service_team | index(\\"Platform Team\\") != null"
    }
  }
}
`;

const WORKLOAD = `resource "port_blueprint" "workload" {
  identifier = "workload"
  title      = "Workload"
  relations = {
    "service" = { title = "Service", target = port_blueprint.service.identifier }
  }
}
resource "port_blueprint" "service" {
  identifier = "service"
  title      = "Service"
  ownership  = { type = "Direct" }
}
`;

describe('a $team mirror two hops away', () => {
  test('through blueprints of another file whose relation targets are resource references', async () => {
    expect(await scan({ 'tf/deployment.tf': DEPLOYMENT, 'tf/workload.tf': WORKLOAD })).toEqual([
      'tf/deployment.tf:8 mirror-property review',
      'tf/deployment.tf:14 calculation-property breaks',
    ]);
  });

  test('through blueprints that only the org holds', async () => {
    const org = {
      blueprints: [
        { identifier: 'workload', title: 'Workload', schema: { properties: {} }, relations: { service: { target: 'service', many: false, required: false } } },
        { identifier: 'service', title: 'Service', schema: { properties: {} }, ownership: { type: 'Direct' } },
      ],
    };
    expect(await scan({ 'tf/deployment.tf': DEPLOYMENT.replace('port_blueprint.workload.identifier', '"workload"') }, org)).toEqual([
      'tf/deployment.tf:8 mirror-property review',
      'tf/deployment.tf:14 calculation-property breaks',
    ]);
  });
});
