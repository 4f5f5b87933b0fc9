import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';
import { inferMigrationState } from '../../src/repo/repository-catalog.js';
import type { StateFact } from '../../src/repo/repository-facts.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { useJqEngine } from '../support/jq-engine.js';
import { temporaryRepository } from './helpers.js';

const jq = useJqEngine();

const checkout = (files: Record<string, string>) => temporaryRepository(files, 'tma-repo-catalog-');

/** `analyze --repo DIR` without an org, as the CLI runs it. */
async function scanAlone(root: string): Promise<Report> {
  const catalog = buildCatalog(repositoryOnlySnapshot([root]), { jq });
  return analyze(catalog, await repositoryFindings([root], catalog));
}

const at = (report: Report, root: string) => report.findings.map((f) => `${f.location.slice(basename(root).length + 1)} ${f.category} ${f.verdict ?? '-'}`);
const stateNote = (report: Report) => (report.notes ?? []).find((note) => note.startsWith('migration state of repository'));

/** An export of an org that has migrated, in the service's own shapes: blueprints (with the system ones), scorecards. */
function exportOf({ migrated }: { migrated: boolean }): string {
  const service = {
    identifier: 'service',
    title: 'Service',
    ...(migrated ? { ownership: { type: 'Direct' } } : {}),
    schema: { properties: {} },
    mirrorProperties: { owning_teams: { title: 'Owning teams', path: '$team' } },
    relations: {},
  };
  const system = migrated
    ? [
        { identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} },
        { identifier: '_user', title: 'User', schema: { properties: {} }, relations: {} },
      ]
    : [];
  const scorecard = {
    identifier: 'ownership',
    title: 'Ownership',
    blueprint: 'service',
    rules: [{ identifier: 'owned', title: 'Owned', level: 'Gold', query: { combinator: 'and', conditions: [{ property: '$team', operator: 'containsAny', value: ['Payments', 'platform'] }] } }],
  };
  return JSON.stringify({ blueprints: [...system, service], scorecards: [scorecard] }, null, 2);
}

describe('a repository is judged as the org it describes (issue 30, cause 1)', () => {
  test('an export of a migrated org gets no finding on its identifier-form values, and the note says why it reads as migrated', async () => {
    const root = await checkout({ 'export/port.json': exportOf({ migrated: true }) });
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual([]);
    expect(stateNote(report)).toMatch(/^migration state of repository [^:]+: judged as migrated: holds the blueprint _team, which exists once the org has migrated \([^)]*export\/port\.json:\d+\); holds the blueprint _user, which exists once the org has migrated \([^)]*export\/port\.json:\d+\)$/);
  });

  test('the same export of an org that has not migrated keeps its findings: the mirror copies titles, the rule compares them', async () => {
    const root = await checkout({ 'export/port.json': exportOf({ migrated: false }) });
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual(expect.arrayContaining([expect.stringMatching(/^export\/port\.json:\d+ mirror-property review$/), expect.stringMatching(/^export\/port\.json:\d+ scorecard-rule /)]));
    expect(stateNote(report)).toMatch(/: no file says whether the org has migrated .*; unknown, so what a file needs where the state decides is a review \(give --snapshot or a live org to decide; an org created on or after 14 January 2025 was born with team identifiers and has no migration to run\)$/);
  });

  test('Terraform that declares port_system_blueprint for _team reads as migrated; the org given decides instead', async () => {
    const tf = [
      'resource "port_system_blueprint" "team" {',
      '  identifier = "_team"',
      '}',
      '',
      'resource "port_scorecard" "owned" {',
      '  identifier = "owned"',
      '  title      = "Owned"',
      '  blueprint  = "service"',
      '  rules = [{',
      '    identifier = "r"',
      '    title      = "R"',
      '    level      = "Gold"',
      '    query = { combinator = "and", conditions = [jsonencode({ property = "$team", operator = "containsAny", value = ["Platform"] })] }',
      '  }]',
      '}',
      '',
    ].join('\n');
    const root = await checkout({ 'infra/main.tf': tf });
    const alone = await scanAlone(root);
    expect(at(alone, root)).toEqual([]);
    expect(stateNote(alone)).toMatch(/judged as migrated: declares the system blueprint _team, which exists once the org has migrated \(.*infra\/main\.tf:2\)$/);

    // An org that has not migrated decides: "Platform" is its team's title, which stops matching; the note says both readings.
    const org = buildCatalog({ format: SNAPSHOT_FORMAT, organization: { id: 'o', name: 'Acme', featureFlags: [] }, blueprints: [], teams: [{ name: 'Platform', identifier: 'platform' }], entities: {} }, { jq });
    const withOrg = analyze(org, await repositoryFindings([root], org));
    expect(at(withOrg, root)).toEqual(['infra/main.tf:13 scorecard-rule breaks']);
    expect(stateNote(withOrg)).toMatch(/its files read as migrated: declares the system blueprint _team, .*; the org Acme decides: it has not migrated, so the files are judged against the org, not as they read$/);
  });

  test('strong facts outweigh weak ones; weak facts that disagree read as not migrated; none is unknown', () => {
    const fact = (migrated: boolean, strong: boolean): StateFact => ({ file: 'f', line: 1, fact: `${migrated}/${strong}`, migrated, strong });
    expect(inferMigrationState([fact(true, true), fact(false, false)])).toMatchObject({ migrated: true, known: true, against: [fact(false, false)] });
    expect(inferMigrationState([fact(false, true), fact(true, false)])).toMatchObject({ migrated: false, known: true });
    expect(inferMigrationState([fact(true, false), fact(false, false)])).toMatchObject({ migrated: false, known: true });
    expect(inferMigrationState([fact(true, false)])).toMatchObject({ migrated: true, known: true });
    expect(inferMigrationState([fact(true, true), fact(false, true)])).toMatchObject({ migrated: false, known: true });
    expect(inferMigrationState([])).toMatchObject({ migrated: false, known: false });
  });
});

describe('what the files write is what the migration will find', () => {
  test('a port_blueprint whose entities the configuration gives teams gets Direct ownership from the migration: the copy without it strips it', async () => {
    const tf = [
      'resource "port_team" "example" {',
      '  name = "Example Team"',
      '}',
      '',
      'resource "port_blueprint" "owned" {',
      '  identifier = "owned"',
      '  title      = "Owned"',
      '}',
      '',
      'resource "port_blueprint" "plain" {',
      '  identifier = "plain"',
      '  title      = "Plain"',
      '}',
      '',
      'resource "port_entity" "a" {',
      '  blueprint = port_blueprint.owned.identifier',
      '  title     = "A"',
      '  teams     = [port_team.example.name]',
      '}',
      '',
      'resource "port_entity" "b" {',
      '  blueprint = port_blueprint.plain.identifier',
      '  title     = "B"',
      '}',
      '',
    ].join('\n');
    const root = await checkout({ 'main.tf': tf });
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual(['main.tf:18 external-ownership breaks', 'main.tf:5 external-ownership breaks']);
    expect(report.findings.find((f) => f.location.endsWith('main.tf:5'))?.rewrite).toBe('ownership = { type = "Direct" }');
  });

  test('permissions an exported action carries inside itself are its permissions: titles break, identifier-form values do not', async () => {
    const action = {
      identifier: 'create_service',
      title: 'Create service',
      trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: {} } },
      invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      permissions: { execute: { roles: ['Admin'], users: [], teams: ['Backend Team', 'platform'] }, approve: { roles: [], users: [], teams: ['platform'] } },
    };
    const root = await checkout({ 'actions/create.json': JSON.stringify(action, null, 2) });
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual([expect.stringMatching(/^actions\/create\.json:\d+ team-permission-identifiers breaks$/)]);
    const finding = report.findings[0]!;
    expect(finding.evidence).toContain('"Backend Team"');
    // At the attribute's line: `"teams": [`, the line before the titles of the multi-line list.
    const lines = JSON.stringify(action, null, 2).split('\n');
    expect(finding.location).toBe(`${basename(root)}/actions/create.json:${lines.findIndex((line) => line.includes('Backend Team'))}`);
    expect(lines[lines.findIndex((line) => line.includes('Backend Team')) - 1]).toContain('"teams": [');
  });
});

describe('facts beyond blueprints (issue 30, cause 1)', () => {
  test('titles the files write as team values say the org has not migrated; a script on the _user entities says it has', async () => {
    const titles = await checkout({ 'permissions.json': JSON.stringify({ read: { roles: [], users: [], teams: ['Backend Team'] } }, null, 2) });
    expect(stateNote(await scanAlone(titles))).toMatch(/judged as not migrated: team value "Backend Team" is a title \(.*permissions\.json:\d+\)$/);
    const client = ['const api = axios.create({ baseURL: process.env.PORT_API_URL });', "export const users = () => api.get('/blueprints/_user/entities');", ''].join('\n');
    const reads = await checkout({ 'src/port_client.ts': client, 'permissions.json': JSON.stringify({ read: { roles: [], users: [], teams: ['Backend Team'] } }, null, 2) });
    const report = await scanAlone(reads);
    // The strong fact decides; the title is what the scan then reports as left to change.
    expect(stateNote(report)).toMatch(/judged as migrated: calls the API on the entities of _user, which exists once the org has migrated \(.*src\/port_client\.ts:2\); although team value "Backend Team" is a title/);
    expect(at(report, reads)).toEqual([expect.stringMatching(/^permissions\.json:\d+ team-permission-identifiers breaks$/)]);
  });

  test('a blueprint that declares ownership keeps its team inheritance only as a leftover the service ignores: no finding, and it says migrated', async () => {
    // A test-org setup script in a shape third parties write: blueprints with both settings, sent by an API client.
    const blueprint = (id: string) => ({ identifier: id, title: id, schema: { properties: {} }, teamInheritance: { path: 'team' }, ownership: { type: 'Direct' } });
    const setup = ['const base = process.env.PORT_API_URL;', `export const seed = () => axios.post(\`\${base}/v1/blueprints\`, ${JSON.stringify(blueprint('svc'))});`, ''].join('\n');
    const root = await checkout({ 'test/setup.ts': setup });
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual([]);
    expect(stateNote(report)).toMatch(/judged as migrated: blueprint svc declares ownership \(.*test\/setup\.ts:2\)$/);
    // Without ownership beside it, the same inheritance is what the migration turns into ownership.
    const { ownership: _, ...legacy } = blueprint('svc');
    const old = await checkout({ 'test/setup.ts': setup.replace(JSON.stringify(blueprint('svc')), JSON.stringify(legacy)) });
    const before = await scanAlone(old);
    expect(at(before, old)).toEqual(['test/setup.ts:2 external-ownership breaks']);
    expect(stateNote(before)).toMatch(/judged as not migrated: blueprint svc keeps team inheritance/);
  });

  test('a script that writes entities of _team through its own client says the org has migrated; their teams are identifiers then', async () => {
    const setup = [
      'const api = axios.create({ baseURL: process.env.PORT_API_URL });',
      'const upsert = (entity) => api.post(`/blueprints/${entity.blueprint}/entities?upsert=true`, entity);',
      "export const team = (id) => upsert({ identifier: id, title: id, blueprint: '_team', properties: {} });",
      "export const service = () => upsert({ identifier: 'checkout', blueprint: 'service', team: ['Payments'] });",
      '',
    ].join('\n');
    const root = await checkout({ 'test/seed.ts': setup });
    const report = await scanAlone(root);
    expect(stateNote(report)).toMatch(/judged as migrated: holds an entity of _team, which exists once the org has migrated \(.*test\/seed\.ts:3\)$/);
    expect(at(report, root)).toEqual([]);
  });
});

describe('identifier forms the provider computes (issue 30, cause 2)', () => {
  const configuration = (migrated: boolean) => ({
    'infra/main.tf': [
      'resource "port_team" "platform" {', //                     1
      '  name = "Platform Engineering"', //                       2
      '}', //                                                      3
      'resource "port_entity" "checkout" {', //                   4
      '  identifier = "checkout"', //                             5
      '  blueprint  = "service"', //                              6
      '  teams      = [port_team.platform.identifier]', //        7
      '}', //                                                      8
      ...(migrated ? ['resource "port_system_blueprint" "team" {', '  identifier = "_team"', '}'] : []),
      '',
    ].join('\n'),
    // A provider new enough for all of it: no version advice.
    'infra/versions.tf': 'terraform {\n  required_providers {\n    port = {\n      source  = "port-labs/port-labs"\n      version = "~> 2.14"\n    }\n  }\n}\n',
  });
  const advice = (report: Report) => (report.notes ?? []).filter((note) => note.includes('port_team.<name>.identifier'));

  test('port_team.<x>.identifier is the team identifier once migrated: no finding and no advice', async () => {
    const root = await checkout(configuration(true));
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual([]);
    expect(advice(report)).toEqual([]);
  });

  test('before the migration it is null: no finding, one note to apply it with the migration', async () => {
    const root = await checkout(configuration(false));
    const report = await scanAlone(root);
    expect(at(report, root)).toEqual([]);
    expect(advice(report)).toEqual([expect.stringMatching(/^review: Terraform configuration .*infra\/: it reads port_team\.<name>\.identifier \(.*infra\/main\.tf:7\), which the provider leaves null until the org has migrated: apply it with the migration/)]);
  });
});
