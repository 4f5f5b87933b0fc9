import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';
import { mappingFileProviders } from '../../src/repo/mapping-files.js';
import { repositoryFindings } from '../../src/repo/report-input.js';
import { temporaryRepository } from './helpers.js';

/** An org whose GitHub app keeps its mapping in a repository, and a GitLab one likewise. */
const ORG: OrgSnapshot = {
  format: SNAPSHOT_FORMAT,
  organization: { id: 'o', name: 'o' },
  blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} } }],
  integrations: [
    { installationId: 'gh-app', integrationType: 'github' },
    { installationId: 'gl', integrationType: 'gitlab' },
  ],
  teams: [{ name: 'Payments', identifier: 'payments' }],
  entities: {},
  scorecards: [],
};

const repository = (files: Record<string, string>) => temporaryRepository(files, 'tma-mapping-');

const NO_TEAM = `resources:\n  - kind: repository\n    port:\n      entity:\n        mappings:\n          identifier: .name\n          blueprint: '"service"'\n`;
const TITLE_TEAM = `${NO_TEAM}          team: '"Payments"'\n`;

async function audit(files: Record<string, string>) {
  const catalog = buildCatalog(ORG);
  const dir = await repository(files);
  return analyze(catalog, await repositoryFindings([dir], catalog));
}

describe("the org's repository-kept mapping, settled by a scanned file", () => {
  test('a scanned .github/port-app-config.yml that sets no team settles the GitHub item as verified; GitLab stays a review', async () => {
    const report = await audit({ '.github/port-app-config.yml': NO_TEAM });
    const github = report.verified?.find((f) => f.resource.identifier === 'gh-app');
    expect(github?.verdict).toBe('unaffected');
    expect(github?.reason).toContain('.github/port-app-config.yml');
    const open = report.findings.filter((f) => f.category === 'integration-mapping');
    expect(open.map((f) => [f.resource.identifier, f.verdict])).toEqual([['gl', 'review']]);
  });

  test("a scanned mapping with a team title gives the org's item that file's verdict", async () => {
    const report = await audit({ '.github/port-app-config.yml': TITLE_TEAM });
    const github = report.findings.find((f) => f.resource.identifier === 'gh-app');
    expect(github?.verdict).toBe('breaks');
    expect(github?.reason).toContain('1 finding of its own');
    expect(report.findings.some((f) => f.resource.type === 'file' && f.category === 'integration-mapping' && f.verdict === 'breaks')).toBe(true);
  });

  test("an integration's shipped defaults (.port/resources) settle nothing", async () => {
    const report = await audit({ 'integrations/github/.port/resources/port-app-config.yml': NO_TEAM });
    expect(report.findings.filter((f) => f.category === 'integration-mapping').map((f) => f.verdict)).toEqual(['review', 'review']);
    expect(mappingFileProviders('x/.port/resources/port-app-config.yml')).toBeUndefined();
    expect(mappingFileProviders('x/.gitlab/port-app-config.yml')).toEqual(['gitlab']);
    expect(mappingFileProviders('port-app-config.yml')).toBe('any');
  });

  test("the scan's notes reach report.notes", async () => {
    const report = await audit({ '.github/port-app-config.yml': NO_TEAM, 'blob.py': '\u0000\u0001' });
    expect(report.notes?.some((note) => note.endsWith('blob.py: skipped, a binary file'))).toBe(true);
  });
});
