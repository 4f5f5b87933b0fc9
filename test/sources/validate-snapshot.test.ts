import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { InputError } from '../../src/errors.js';
import type { JsonObject } from '../../src/model/json.js';
import { joinPath } from '../../src/catalog/location.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { analysableSnapshot, checkSnapshot, validateSnapshot } from '../../src/sources/validate-snapshot.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { org } from '../support/rule-tester.js';

const FILE = 'org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-validate-'));
const demoText = readFileSync('fixtures/demo-org.json', 'utf8');
const demo = (): JsonObject => JSON.parse(demoText) as JsonObject;

function messageOf(document: unknown): string {
  try {
    validateSnapshot(document, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

const blueprint = (extra: JsonObject = {}): JsonObject => ({ identifier: 'service', title: 'Service', relations: {}, ...extra });
const action = (extra: JsonObject = {}): JsonObject => ({ identifier: 'deploy', title: 'Deploy', ...extra });
const page = (extra: JsonObject = {}): JsonObject => ({ identifier: 'home', title: 'Home', ...extra });

describe('validateSnapshot: wrong types deep inside', () => {
  // [what, org parts, field path, expected, got]
  const cases: [string, JsonObject, string, string, string][] = [
    [
      'permission teams as a string',
      { blueprintPermissions: { service: { entities: { register: { roles: [], teams: 'Platform Team' } } } } },
      'blueprintPermissions.service.entities.register.teams',
      'an array of strings',
      'string "Platform Team"',
    ],
    [
      'a number in a permission teams list',
      { blueprintPermissions: { service: { entities: { register: { teams: ['Platform Team', 5] } } } } },
      'blueprintPermissions.service.entities.register.teams[1]',
      'a string',
      'number 5',
    ],
    [
      'updateProperties teams',
      { blueprintPermissions: { service: { entities: { updateProperties: { tier: { teams: {} } } } } } },
      'blueprintPermissions.service.entities.updateProperties.tier.teams',
      'an array of strings',
      'an object',
    ],
    [
      'updateMetadataProperties entry',
      { blueprintPermissions: { service: { entities: { updateMetadataProperties: { $team: 'Platform Team' } } } } },
      'blueprintPermissions.service.entities.updateMetadataProperties.$team',
      'an object',
      'string "Platform Team"',
    ],
    [
      'updateRelations teams',
      { blueprintPermissions: { service: { entities: { updateRelations: { domain: { teams: 'A' } } } } } },
      'blueprintPermissions.service.entities.updateRelations.domain.teams',
      'an array of strings',
      'string "A"',
    ],
    [
      'teams in an unknown permission key (the rule reads every depth)',
      { blueprintPermissions: { service: { entities: { someFutureVerb: { teams: 'A' } } } } },
      'blueprintPermissions.service.entities.someFutureVerb.teams',
      'an array of strings',
      'string "A"',
    ],
    ['execute teams', { actionPermissions: { deploy: { execute: { teams: 'A' } } } }, 'actionPermissions.deploy.execute.teams', 'an array of strings', 'string "A"'],
    ['approve teams', { actionPermissions: { deploy: { approve: { teams: 7 } } } }, 'actionPermissions.deploy.approve.teams', 'an array of strings', 'number 7'],
    ['page read teams', { pagePermissions: { home: { read: { teams: true } } } }, 'pagePermissions.home.read.teams', 'an array of strings', 'boolean true'],
    [
      'policy rules as an object',
      { actionPermissions: { deploy: { execute: { policy: { queries: { q: { combinator: 'and', rules: {} } } } } } } },
      'actionPermissions.deploy.execute.policy.queries.q.rules',
      'an array',
      'an object',
    ],
    [
      'a policy rule property',
      { actionPermissions: { deploy: { execute: { policy: { queries: { q: { rules: [{ property: 5, operator: '=', value: 'x' }] } } } } } } },
      'actionPermissions.deploy.execute.policy.queries.q.rules[0].property',
      'a string or an object with a path',
      'number 5',
    ],
    [
      'a rule in a nested group',
      { actionPermissions: { deploy: { execute: { policy: { queries: { q: { rules: [{ combinator: 'or', rules: [{ property: [] }] }] } } } } } } },
      'actionPermissions.deploy.execute.policy.queries.q.rules[0].rules[0].property',
      'a string or an object with a path',
      'an array',
    ],
    [
      'a $team rule value',
      { actionPermissions: { deploy: { execute: { policy: { queries: { q: { rules: [{ property: '$team', operator: 'in', value: 5 }] } } } } } } },
      'actionPermissions.deploy.execute.policy.queries.q.rules[0].value',
      'a string, an array of strings or an object',
      'number 5',
    ],
    [
      'policy conditions',
      { actionPermissions: { deploy: { execute: { policy: { conditions: '.user.team' } } } } },
      'actionPermissions.deploy.execute.policy.conditions',
      'an array of strings',
      'string ".user.team"',
    ],
    ['relations', { blueprints: [blueprint({ relations: [] })] }, 'blueprints[0].relations', 'an object keyed by identifier', 'an array'],
    ['a relation', { blueprints: [blueprint({ relations: { owning_team: '_team' } })] }, 'blueprints[0].relations.owning_team', 'an object', 'string "_team"'],
    ['a relation target', { blueprints: [blueprint({ relations: { owning_team: { target: 5 } } })] }, 'blueprints[0].relations.owning_team.target', 'a string', 'number 5'],
    [
      'a relation without target',
      { blueprints: [blueprint({ relations: { owning_team: { many: true } } })] },
      'blueprints[0].relations.owning_team.target',
      'a string',
      'nothing (the field is missing)',
    ],
    ['a relation many', { blueprints: [blueprint({ relations: { o: { target: '_team', many: 'yes' } } })] }, 'blueprints[0].relations.o.many', 'a boolean', 'string "yes"'],
    [
      'a calculation',
      { blueprints: [blueprint({ calculationProperties: { owner_list: { title: 'Owners', calculation: 5, type: 'array' } } })] },
      'blueprints[0].calculationProperties.owner_list.calculation',
      'a string',
      'number 5',
    ],
    ['teamInheritance.path', { blueprints: [blueprint({ teamInheritance: { path: 5 } })] }, 'blueprints[0].teamInheritance.path', 'a string', 'number 5'],
    ['teamInheritance', { blueprints: [blueprint({ teamInheritance: 'domain' })] }, 'blueprints[0].teamInheritance', 'an object', 'string "domain"'],
    ['ownership.type', { blueprints: [blueprint({ ownership: { type: 'direct' } })] }, 'blueprints[0].ownership.type', '"Direct" or "Inherited"', 'string "direct"'],
    ['ownership.path', { blueprints: [blueprint({ ownership: { type: 'Inherited', path: ['a'] } })] }, 'blueprints[0].ownership.path', 'a string', 'an array'],
    ['an action trigger', { actions: [action({ trigger: 5 })] }, 'actions[0].trigger', 'one of "CREATE", "DAY-2", "DELETE" or an object', 'number 5'],
    ['a string trigger', { actions: [action({ trigger: 'self-service' })] }, 'actions[0].trigger', 'one of "CREATE", "DAY-2", "DELETE" or an object', 'string "self-service"'],
    ['trigger.type', { actions: [action({ trigger: { type: 1 } })] }, 'actions[0].trigger.type', 'a string', 'number 1'],
    [
      'userInputs.properties',
      { actions: [action({ trigger: { type: 'self-service', userInputs: { properties: [] } } })] },
      'actions[0].trigger.userInputs.properties',
      'an object keyed by identifier',
      'an array',
    ],
    [
      'a jqQuery',
      { actions: [action({ trigger: { type: 'self-service', userInputs: { properties: { env: { type: 'string', visible: { jqQuery: 5 } } } } } })] },
      'actions[0].trigger.userInputs.properties.env.visible.jqQuery',
      'a string',
      'number 5',
    ],
    [
      'a jqQuery deep in a dataset rule',
      {
        actions: [
          action({
            trigger: {
              type: 'self-service',
              userInputs: { properties: { env: { dataset: { rules: [{ property: 'x', operator: '=', value: { jqQuery: {} } }] } } } },
            },
          }),
        ],
      },
      'actions[0].trigger.userInputs.properties.env.dataset.rules[0].value.jqQuery',
      'a string',
      'an object',
    ],
    [
      'a form-level jqQuery',
      { actions: [action({ trigger: { type: 'self-service', userInputs: { properties: {}, required: { jqQuery: false } } } })] },
      'actions[0].trigger.userInputs.required.jqQuery',
      'a string',
      'boolean false',
    ],
    [
      'trigger condition expressions',
      { actions: [action({ trigger: { type: 'automation', condition: { type: 'JQ', expressions: '.diff.after.team' } } })] },
      'actions[0].trigger.condition.expressions',
      'an array of strings',
      'string ".diff.after.team"',
    ],
    ['invocationMethod', { actions: [action({ invocationMethod: 'WEBHOOK' })] }, 'actions[0].invocationMethod', 'an object', 'string "WEBHOOK"'],
    [
      'an upsert mapping team',
      { actions: [action({ invocationMethod: { type: 'UPSERT_ENTITY', mapping: { team: 5 } } })] },
      'actions[0].invocationMethod.mapping.team',
      'a string, an object or an array',
      'number 5',
    ],
    [
      'an element of an upsert mapping team list',
      { actions: [action({ invocationMethod: { type: 'UPSERT_ENTITY', mapping: { team: ['Platform', 5] } } })] },
      'actions[0].invocationMethod.mapping.team[1]',
      'a string or an object',
      'number 5',
    ],
    [
      'a path rule path',
      { pages: [page({ widgets: [{ dataset: { rules: [{ property: { path: '$team' }, operator: '=', value: 'x' }] } }] })] },
      'pages[0].widgets[0].dataset.rules[0].property.path',
      'an array of strings',
      'string "$team"',
    ],
    [
      'a rule in an array dataset',
      { pages: [page({ widgets: [{ type: 'entities-number-chart', dataset: [{ property: '$team', operator: 'in', value: 7 }] }] })] },
      'pages[0].widgets[0].dataset[0].value',
      'a string, an array of strings or an object',
      'number 7',
    ],
    ['a widget dataset', { pages: [page({ widgets: [{ dataset: 'service' }] })] }, 'pages[0].widgets[0].dataset', 'an object or an array', 'string "service"'],
    ['a scorecard rule query', { scorecards: [{ identifier: 'prod', rules: [{ identifier: 'r', query: [] }] }] }, 'scorecards[0].rules[0].query', 'an object', 'an array'],
    [
      'a scorecard condition',
      { scorecards: [{ identifier: 'prod', filter: { combinator: 'and', conditions: [{ property: '$team', operator: 'in', value: 1 }] } }] },
      'scorecards[0].filter.conditions[0].value',
      'a string, an array of strings or an object',
      'number 1',
    ],
    [
      'an older mapping.entity relation',
      { actions: [action({ invocationMethod: { type: 'UPSERT_ENTITY', mapping: { entity: { relations: { owning_team: 3 } } } } })] },
      'actions[0].invocationMethod.mapping.entity.relations.owning_team',
      'a string, an object or an array',
      'number 3',
    ],
    ['page widgets', { pages: [page({ widgets: {} })] }, 'pages[0].widgets', 'an array', 'an object'],
    ['a widget', { pages: [page({ widgets: ['table'] })] }, 'pages[0].widgets[0]', 'an object', 'string "table"'],
    ['nested widgets', { pages: [page({ widgets: [{ type: 'dashboard-widget', widgets: [{ excludedFields: 'teams' }] }] })] }, 'pages[0].widgets[0].widgets[0].excludedFields', 'an array of strings', 'string "teams"'],
    ['blueprintConfig', { pages: [page({ widgets: [{ blueprintConfig: [] }] })] }, 'pages[0].widgets[0].blueprintConfig', 'an object keyed by identifier', 'an array'],
    [
      'a widget filter rule',
      { pages: [page({ widgets: [{ blueprintConfig: { service: { filterSettings: { filterBy: { rules: [{ property: '$team', value: [1] }] } } } } }] })] },
      'pages[0].widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0].value[0]',
      'a string',
      'number 1',
    ],
    [
      'a sortBy entry',
      { pages: [page({ widgets: [{ blueprintConfig: { service: { sortSettings: { sortBy: [{ property: 2 }] } } } }] })] },
      'pages[0].widgets[0].blueprintConfig.service.sortSettings.sortBy[0].property',
      'a string',
      'number 2',
    ],
    ['integration resources', { integrations: [{ installationId: 'gh', config: { resources: {} } }] }, 'integrations[0].config.resources', 'an array', 'an object'],
    [
      'integration mappings',
      { integrations: [{ installationId: 'gh', config: { resources: [{ kind: 'repo', port: { entity: { mappings: 'x' } } }] } }] },
      'integrations[0].config.resources[0].port.entity.mappings',
      'an object or an array',
      'string "x"',
    ],
    [
      'an integration mapping in a list',
      { integrations: [{ installationId: 'gh', config: { resources: [{ port: { entity: { mappings: [{ team: '.team' }, 5] } } }] } }] },
      'integrations[0].config.resources[0].port.entity.mappings[1]',
      'an object',
      'number 5',
    ],
    [
      'an integration mapping team list element',
      { integrations: [{ installationId: 'gh', config: { resources: [{ port: { entity: { mappings: { team: ['.team', true] } } } }] } }] },
      'integrations[0].config.resources[0].port.entity.mappings.team[1]',
      'a string or an object',
      'boolean true',
    ],
    [
      'a team search query rule',
      { integrations: [{ installationId: 'gh', config: { resources: [{ port: { entity: { mappings: { team: { combinator: 'and', rules: [{ property: '$title', value: 5 }, 'x'] } } } } }] } }] },
      'integrations[0].config.resources[0].port.entity.mappings.team.rules[1]',
      'an object',
      'string "x"',
    ],
    [
      'integration mapping relations',
      { integrations: [{ installationId: 'gh', config: { resources: [{ port: { entity: { mappings: { relations: '.x' } } } }] } }] },
      'integrations[0].config.resources[0].port.entity.mappings.relations',
      'an object keyed by identifier',
      'string ".x"',
    ],
    ['webhook mappings', { webhooks: [{ identifier: 'hook', mappings: {} }] }, 'webhooks[0].mappings', 'an array', 'an object'],
    ['a webhook entity', { webhooks: [{ identifier: 'hook', mappings: [{ blueprint: 'service', entity: '.body' }] }] }, 'webhooks[0].mappings[0].entity', 'an object', 'string ".body"'],
    ['a webhook team', { webhooks: [{ identifier: 'hook', mappings: [{ entity: { team: 1 } }] }] }, 'webhooks[0].mappings[0].entity.team', 'a string, an object or an array', 'number 1'],
    ['a team name', { teams: [{ name: 5 }] }, 'teams[0].name', 'a string', 'number 5'],
    ['a team identifier', { teams: [{ name: 'A', identifier: {} }] }, 'teams[0].identifier', 'a string', 'an object'],
    ['an entity team', { entities: { domain: [{ identifier: 'd', team: {} }] } }, 'entities.domain[0].team', 'a string or an array of strings', 'an object'],
    ['an entity team list', { entities: { domain: [{ identifier: 'd', team: ['A', null] }] } }, 'entities.domain[0].team[1]', 'a string', 'null'],
    ['entity relations', { entities: { domain: [{ identifier: 'd', relations: 'x' }] } }, 'entities.domain[0].relations', 'an object', 'string "x"'],
    ['an entity list', { entities: { domain: {} } }, 'entities.domain', 'an array', 'an object'],
    ['a resource title', { blueprints: [blueprint({ title: 1 })] }, 'blueprints[0].title', 'a string', 'number 1'],
    ['a key that needs brackets', { blueprints: [blueprint({ relations: { 'owning team': { target: 1 } } })] }, 'blueprints[0].relations["owning team"].target', 'a string', 'number 1'],
  ];

  it.each(cases)('%s: a note naming the path, or exit 2 with --strict', (_what, parts, path, expected, got) => {
    const { notes } = checkSnapshot(org(parts), FILE);
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^${escape(`${path}: expected ${expected}, got ${got}`)}(; left out of the analysis)?$`))]);
    const message = messageOf(org(parts));
    expect(message).toBe(`${FILE}: field "${path}": expected ${expected}, got ${got}`);
    expect(message).not.toContain('\n');
  });
});

describe('checkSnapshot: a rule value that names the user or the user\'s teams', () => {
  // The service's context values (`{context: "user" | "userTeams", property}`) stand where a
  // `$team` rule's value is; a held-out org's widgets got a note "jqQuery missing" on each.
  const widgetOrg = (value: unknown) =>
    org({
      pages: [{ identifier: 'pg', widgets: [{ id: 'w', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value }] } } } } }] }],
    });

  it.each([
    ['the user', { context: 'user', property: '$team' }],
    ["the user's teams", { context: 'userTeams', property: '$identifier' }],
  ])('%s: no note', (_what, value) => {
    expect(checkSnapshot(widgetOrg(value), FILE).notes).toEqual([]);
  });

  it.each([
    ['an object that is neither', { property: '$team' }, 'value.jqQuery: expected a string, got nothing'],
    ['a context with no property', { context: 'user' }, 'value.property: expected a string, got nothing'],
    ['a context that is no name', { context: 3, property: '$team' }, 'value.context: expected a string, got number 3'],
  ])('%s: still a note', (_what, value, note) => {
    expect(checkSnapshot(widgetOrg(value), FILE).notes).toEqual([expect.stringContaining(note)]);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('validateSnapshot: what it accepts', () => {
  it('treats null as absent wherever a field may be absent', () => {
    const document = org({
      blueprints: [
        blueprint({ teamInheritance: null, ownership: null, relations: null, calculationProperties: { c: { calculation: '.team', title: null } } }),
        { identifier: 'repo', title: null, relations: { owning_team: { target: '_team', many: null, required: null } } },
      ],
      blueprintPermissions: { service: null, repo: { entities: { register: { teams: null, roles: ['Admin'] }, updateProperties: null } } },
      actions: [action({ trigger: { type: 'self-service', userInputs: { properties: { env: { visible: { jqQuery: null } } } } }, invocationMethod: null })],
      actionPermissions: { deploy: null, other: { execute: { teams: null, policy: null }, approve: { policy: { queries: null, conditions: null } } } },
      pages: [page({ widgets: [{ excludedFields: null, blueprintConfig: { service: null } }] })],
      pagePermissions: { home: null },
      integrations: [{ installationId: 'gh', config: null }],
      webhooks: [{ identifier: 'hook', mappings: [{ entity: { team: null } }] }],
      teams: [{ name: 'A', identifier: null }],
      entities: { service: [{ identifier: 's', team: null, relations: null }], repo: null },
      incomplete: null,
    });
    const snapshot = validateSnapshot(document, FILE);
    const report = analyze(buildCatalog(snapshot));
    expect(report.ruleErrors).toBeUndefined();
    expect(report.incomplete).toEqual([]);
  });

  it('null entities means not fetched, like a missing key', () => {
    const report = analyze(buildCatalog(validateSnapshot(org({ entities: null }), FILE)));
    expect(report.incomplete.map((i) => i.resource)).toEqual(['entities']);
  });

  it('keeps unknown extra fields at every level and does not check them', () => {
    const document = org({
      blueprints: [blueprint({ futureField: 5, relations: { d: { target: 'domain', description: 1 } } })],
      blueprintPermissions: { service: { entities: { register: { teams: ['A'], someFlag: 3 } } } },
      actions: [action({ trigger: { type: 'self-service', newThing: [1] }, invocationMethod: { type: 'WEBHOOK', body: { count: 5, team: null } } })],
      pages: [page({ widgets: [{ type: 'markdown', markdown: 1 }] })],
      scorecards: [{ identifier: 'prod', anything: true }],
    });
    const snapshot = validateSnapshot(document, FILE);
    expect(snapshot).toBe(document);
    expect(snapshot.scorecards).toEqual([{ identifier: 'prod', anything: true }]);
    expect(snapshot.blueprints[0]?.futureField).toBe(5);
  });

  it('accepts the older action shape: a string trigger and top-level userInputs', () => {
    expect(() => validateSnapshot(org({ actions: [action({ trigger: 'DAY-2', userInputs: { properties: {} } })] }), FILE)).not.toThrow();
  });

  it.each([
    ['the demo org', 'fixtures/demo-org.json'],
    ['the XSS org', 'fixtures/xss-org.json'],
    ['the live fixture', 'test/fixtures/live-org.json'],
  ])('accepts %s', async (_name, path) => {
    await expect(readSnapshotFile(path)).resolves.toMatchObject({ format: 'org-snapshot/1' });
  });

  it('accepts what the synthetic org generator writes, at several seeds', () => {
    for (const seed of [1, 2, 3]) {
      const document = JSON.parse(JSON.stringify(generateSyntheticOrg({ blueprints: 60, actions: 80, pages: 20, seed })));
      expect(() => validateSnapshot(document, `synthetic ${seed}`)).not.toThrow();
    }
  });
});

describe('readSnapshotFile', () => {
  it('loads a file that starts with a UTF-8 byte order mark', async () => {
    const path = join(tmp(), 'bom.json');
    writeFileSync(path, `\uFEFF${demoText}`, 'utf8');
    expect(readFileSync(path)[0]).toBe(0xef);
    const snapshot = await readSnapshotFile(path);
    expect(snapshot.organization.name).toBe('Acme Payments');
  });

  it('still names the file and the field for a BOM file with a wrong type', async () => {
    const path = join(tmp(), 'bom-bad.json');
    writeFileSync(path, `\uFEFF${JSON.stringify(org({ teams: [{ name: 1 }] }))}`, 'utf8');
    await expect(readSnapshotFile(path)).rejects.toThrow(`${path}: field "teams[0].name": expected a string, got number 1`);
  });
});

describe('analyze --snapshot with a wrong type deep inside', () => {
  const withStringTeams = () => {
    const dir = tmp();
    const document = demo();
    (document.blueprintPermissions as Record<string, Record<string, Record<string, Record<string, unknown>>>>).service!.entities!.register!.teams = 'Platform Team';
    const file = join(dir, 'org.json');
    writeFileSync(file, JSON.stringify(document));
    return { dir, file };
  };

  it('notes it in report.json, the HTML and on stderr, and analyses the rest', async () => {
    const { dir, file } = withStringTeams();
    const run = await runCliCaptured(['analyze', '--snapshot', file, '--out', dir, '--fail-on', 'none', '--format', 'json,html,md']);
    expect(run.code).toBe(0);
    const note = 'blueprintPermissions.service.entities.register.teams: expected an array of strings, got string "Platform Team"';
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.notes).toEqual([note]);
    expect(run.stderr).toContain(`note: ${note}\n`);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(`<code>${note.replaceAll('"', '&quot;')}</code>`);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('1 note: values of the org of a shape this tool does not fully know');
    // Everything of the demo is still there, the string itself judged as the one title it names.
    const demoOut = tmp();
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', demoOut, '--fail-on', 'none']);
    const keys = (r: { findings: { category: string; location: string; resource: { identifier: string } }[] }) =>
      r.findings.map((f) => `${f.category} ${f.resource.identifier} ${f.location}`);
    const expected = keys(JSON.parse(readFileSync(join(demoOut, 'report.json'), 'utf8')));
    expect(expected.length).toBeGreaterThan(20);
    expect(keys(report)).toEqual(expected);
    const single = report.findings.find((f: { location: string; resource: { identifier: string } }) => f.location === 'permissions.entities.register.teams' && f.resource.identifier === 'service');
    expect(single).toMatchObject({ category: 'team-permission-identifiers', evidence: '["Platform Team"]', rewrite: '["platform"]' });
  });

  it('a blueprint that is a number: analyze notes it and goes on, snapshot keeps it in the recording', async () => {
    const dir = tmp();
    const document = demo();
    document.blueprints = [7, ...(document.blueprints as JsonObject[])];
    const file = join(dir, 'org.json');
    writeFileSync(file, JSON.stringify(document));
    const run = await runCliCaptured(['analyze', file, '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: blueprints[0]: expected an object, got number 7; left out of the analysis\n');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).findings.length).toBeGreaterThan(20);
    const recorded = join(dir, 'again.json');
    const snapshot = await runCliCaptured(['snapshot', file, '--out', recorded]);
    expect(snapshot.code).toBe(0);
    expect(snapshot.stderr).toContain('note: blueprints[0]: expected an object, got number 7');
    expect(JSON.parse(readFileSync(recorded, 'utf8')).blueprints).toContain(7);
  });

  it('with --strict exits 2 with one line naming file, field, expected and got, and writes no report', async () => {
    const { dir, file } = withStringTeams();
    const run = await runCliCaptured(['analyze', '--snapshot', file, '--out', dir, '--fail-on', 'none', '--strict']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${file}: field "blueprintPermissions.service.entities.register.teams": expected an array of strings, got string "Platform Team"`);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it('analyses a BOM file with exit 0', async () => {
    const dir = tmp();
    const file = join(dir, 'org.json');
    writeFileSync(file, `\uFEFF${demoText}`);
    const run = await runCliCaptured(['analyze', '--snapshot', file, '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(0);
  });
});

/**
 * The defect this guards against: a value of the wrong type that a rule silently skips, so the
 * report comes out shorter with exit 0 and nothing says why. Each string leaf of the demo org in
 * turn becomes a number (and each array or object a string); the org must then load, no rule may
 * fail, and either a note names exactly that field or the findings stay the same.
 */
describe('the demo org, mutated one node at a time', () => {
  type Path = (string | number)[];
  /**
   * Where any JSON value is legitimate, so a number is a different valid org, not a malformed one:
   * webhook / workflow payloads (a literal 5 in a body has no jq to read the team with).
   */
  const FREE_FORM = [/^actions\[\d+\]\.invocationMethod\.(body|workflowInputs)\b/];

  /** Paths of the nodes `select` picks, below the top-level keys. */
  function nodes(value: unknown, path: Path, select: (node: unknown) => boolean, out: Path[] = []): Path[] {
    if (path.length > 1 && select(value)) out.push(path);
    if (Array.isArray(value)) value.forEach((item, index) => nodes(item, [...path, index], select, out));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) nodes(item, [...path, key], select, out);
    return out;
  }

  function analysed(document: unknown): { findings: string; notes: string[] } {
    const { snapshot, notes } = checkSnapshot(document, FILE);
    const report = analyze(buildCatalog(analysableSnapshot(snapshot)));
    expect(report.ruleErrors, 'a rule failed on a tolerated value').toBeUndefined();
    return { findings: JSON.stringify(report.findings), notes };
  }

  /** Replace each selected node by `replacement`; each must be noted at that field or change nothing. */
  function sweep(select: (node: unknown) => boolean, replacement: unknown, got: string, alsoValid: RegExp[] = []): { noted: number; total: number } {
    const baseline = analysed(demo());
    expect(baseline.notes).toEqual([]);
    // The organization is what makes a file a snapshot: its misfits stop the run (tested above).
    const paths = nodes(demo(), [], select).filter((path) => path[0] !== 'organization');
    const silent: string[] = [];
    let noted = 0;
    for (const path of paths) {
      const document = demo();
      const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, document);
      parent[path[path.length - 1]!] = replacement;
      const field = joinPath(...path);
      const { findings, notes } = analysed(document);
      if (notes.length > 0) {
        expect(notes, field).toHaveLength(1);
        expect(notes[0]!.startsWith(`${field}: expected `) && notes[0]!.includes(`, got ${got}`), notes[0]).toBe(true);
        noted++;
        continue;
      }
      if (findings !== baseline.findings && ![...FREE_FORM, ...alsoValid].some((pattern) => pattern.test(field))) silent.push(field);
    }
    expect(silent, 'mutations that changed the report without a note').toEqual([]);
    return { noted, total: paths.length };
  }

  it('each string leaf replaced by a number: noted at that field, or every finding kept', () => {
    const { noted, total } = sweep((node) => typeof node === 'string', 5, 'number 5');
    expect(total).toBeGreaterThan(300);
    expect(noted).toBeGreaterThan(200);
  });

  it('each array replaced by a string: noted at that field, or every finding kept', () => {
    // Where one string is as valid as a list: an entity's team, a search rule's or scorecard condition's value.
    const { noted, total } = sweep(Array.isArray, 'Platform Team', 'string "Platform Team"', [/^entities\.\w+\[\d+\]\.team$/, /\.(rules|conditions)\[\d+\]\.value$/]);
    expect(total).toBeGreaterThan(50);
    expect(noted).toBeGreaterThan(40);
  });

  it('each object replaced by a string: noted at that field, or every finding kept', () => {
    const isObject = (node: unknown) => typeof node === 'object' && node !== null && !Array.isArray(node);
    // An input attribute may hold a literal instead of {jqQuery}.
    const { noted, total } = sweep(isObject, 'Platform Team', 'string "Platform Team"', [/userInputs\.properties\.\w+\.\w+$/]);
    expect(total).toBeGreaterThan(100);
    expect(noted).toBeGreaterThan(50);
  });
});

describe('checkSnapshot: input nested deeper than any service payload', () => {
  /** An action body 5,000 arrays deep: deep enough to overflow any recursive walk of the document. */
  const deep = () => {
    let body: unknown = 'x';
    for (let i = 0; i < 5000; i++) body = [body];
    return org({ actions: [{ identifier: 'deep', invocationMethod: { type: 'WEBHOOK', body: { x: body } } }] });
  };

  it('cuts what is too deep, says where, and the run still writes its report', async () => {
    const { snapshot, notes } = checkSnapshot(deep(), FILE);
    expect(notes).toEqual([expect.stringMatching(/^actions\[0\]\.invocationMethod\.body\.x(\[0\])+: nested deeper than 100 levels.*left out of the analysis$/)]);
    expect(() => analyze(buildCatalog(analysableSnapshot(snapshot)))).not.toThrow();
    const dir = mkdtempSync(join(tmpdir(), 'tma-deep-'));
    const file = join(dir, 'deep.json');
    // Written by hand: JSON.stringify itself cannot write what is this deep.
    const body = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
    writeFileSync(file, `{"format":"org-snapshot/1","organization":{"id":"o","name":"O"},"blueprints":[],"entities":{},"scorecards":[],"actions":[{"identifier":"deep","invocationMethod":{"type":"WEBHOOK","body":{"x":${body}}}}]}`);
    const run = await runCliCaptured(['analyze', file, '--out', dir, '--format', 'json', '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).notes).toContainEqual(expect.stringContaining('nested deeper than 100 levels'));
  });

  it('stops at it under --strict, in one line', () => {
    expect(() => checkSnapshot(deep(), FILE, { strict: true })).toThrow(/nested deeper than 100 levels$/);
  });

  /** An org whose action body nests `levels` arrays below the document (the document is level 0), ending in `leaf`. */
  const nestedTo = (levels: number, leaf: unknown) => {
    // actions, [0], invocationMethod, body: four levels before the body's own arrays.
    let body: unknown = leaf;
    for (let i = 4; i < levels; i++) body = [body];
    return org({ actions: [{ identifier: 'edge', invocationMethod: { type: 'WEBHOOK', body } }] });
  };

  it('measures the limit exactly: an empty list at level 100 stays, a value at level 101 is cut', () => {
    expect(checkSnapshot(nestedTo(100, []), FILE).notes).toEqual([]);
    expect(checkSnapshot(nestedTo(100, {}), FILE).notes).toEqual([]);
    expect(checkSnapshot(nestedTo(101, 'x'), FILE).notes).toEqual([expect.stringMatching(/nested deeper than 100 levels/)]);
    expect(checkSnapshot(nestedTo(100, ['x']), FILE).notes).toEqual([expect.stringMatching(/nested deeper than 100 levels/)]);
  });
});

describe('checkSnapshot: tolerant loading', () => {
  it('collects every misfit, in document order, instead of stopping at the first', () => {
    const { notes } = checkSnapshot(
      org({
        blueprints: [blueprint({ relations: { o: { target: 5 } } }), blueprint({ identifier: 'repo', title: 2 })],
        pages: [page({ widgets: [{ excludedFields: 'x' }, { dataset: 7 }] })],
      }),
      FILE,
    );
    expect(notes).toEqual([
      'blueprints[0].relations.o.target: expected a string, got number 5',
      'blueprints[1].title: expected a string, got number 2',
      'pages[0].widgets[0].excludedFields: expected an array of strings, got string "x"',
      'pages[0].widgets[1].dataset: expected an object or an array, got number 7',
    ]);
  });

  it('leaves out a blueprint that is a number, says so, and analyses the rest of the org', () => {
    const document = demo();
    const blueprints = document.blueprints as JsonObject[];
    const withNumber = { ...document, blueprints: [...blueprints.slice(0, 2), 5, ...blueprints.slice(2)] };
    const { snapshot, notes } = checkSnapshot(withNumber, FILE);
    expect(notes).toEqual(['blueprints[2]: expected an object, got number 5; left out of the analysis']);
    // The snapshot is kept as read (a recording loses nothing); the rules get it without the number.
    expect(snapshot).toBe(withNumber);
    expect(analysableSnapshot(snapshot).blueprints).toEqual(blueprints);
    expect((withNumber.blueprints as unknown[])[2]).toBe(5);
    const report = analyze(buildCatalog(analysableSnapshot(snapshot)));
    expect(report.ruleErrors).toBeUndefined();
    expect(report.findings).toEqual(analyze(buildCatalog(validateSnapshot(demo(), FILE))).findings);
  });

  it('leaves out a top-level list of the wrong type, and a null element of a list', () => {
    const { snapshot, notes } = checkSnapshot(org({ actions: { deploy: {} } as never, teams: [null as never, { name: 'A' }] }), FILE);
    expect(notes).toEqual([
      'actions: expected an array, got an object; left out of the analysis',
      'teams[0]: expected an object, got null; left out of the analysis',
    ]);
    const analysable = analysableSnapshot(snapshot);
    expect(analysable.actions).toBeUndefined();
    expect(analysable.teams).toEqual([{ name: 'A' }]);
    expect(analyze(buildCatalog(analysable)).ruleErrors).toBeUndefined();
    // Without leaving them out, the catalog itself fails on the null team.
    expect(() => analyze(buildCatalog(snapshot))).toThrow(TypeError);
  });

  it('notes an organization whose id or name is missing or not a string, and reads it as text', () => {
    const { snapshot, notes } = checkSnapshot({ ...org(), organization: { id: 42 } }, FILE);
    expect([...notes].sort()).toEqual(['organization.id: expected a string, got number 42', 'organization.name: expected a string, got nothing (the field is missing)']);
    expect(analysableSnapshot(snapshot).organization).toEqual({ id: '42', name: '42' });
    expect(() => checkSnapshot({ ...org(), organization: { name: 'x' } }, FILE, { strict: true })).toThrow(/field "organization.id": expected a string, got nothing/);
  });

  it('keeps a misshapen incomplete entry as a gap, in words the report can show', () => {
    const { snapshot } = checkSnapshot({ ...org(), entities: {}, incomplete: [{ resource: 'pagePermissions' }, { reason: 7 }, 'pages/x permissions: 403', null] }, FILE);
    const report = analyze(buildCatalog(analysableSnapshot(snapshot)));
    expect(report.incomplete).toEqual([
      { resource: 'pagePermissions', reason: 'the recording marks it as not read, without saying why' },
      { resource: '(unnamed resource)', reason: '7' },
      { resource: 'pages/x permissions: 403', reason: 'the recording marks it as not read, without saying why' },
    ]);
    // One entry not in a list is still that gap.
    const lone = checkSnapshot({ ...org(), entities: {}, incomplete: { resource: 'x' } }, FILE).snapshot;
    expect(analyze(buildCatalog(analysableSnapshot(lone))).incomplete).toEqual([{ resource: 'x', reason: 'the recording marks it as not read, without saying why' }]);
  });

  it.each([
    ['not an object', [], /expected an org-snapshot\/1 JSON object, got an array/],
    ['a wrong format', { ...org(), format: 'port-export' }, /field "format": expected "org-snapshot\/1"/],
    ['no blueprints list', { ...org(), blueprints: {} }, /field "blueprints": expected an array, got an object/],
    ['an organization that is a string', { ...org(), organization: 'acme' }, /field "organization": expected an object, got string "acme"/],
  ])('still stops (exit 2) for a document that is no snapshot: %s', (_name, document, message) => {
    expect(() => checkSnapshot(document, FILE)).toThrow(InputError);
    expect(() => checkSnapshot(document, FILE)).toThrow(message);
  });

  it.each([
    ['an array dataset (number chart)', { pages: [page({ widgets: [{ type: 'entities-number-chart', dataset: [{ property: '$team', operator: 'in', value: ['A'] }] }] })] }],
    ['a team list in an upsert mapping', { actions: [action({ invocationMethod: { type: 'UPSERT_ENTITY', mapping: { team: ['Platform'] } } })] }],
    ['relation values as lists', { actions: [action({ invocationMethod: { type: 'UPSERT_ENTITY', mapping: { relations: { pagerdutyService: ['{{ .inputs.id }}'] } } } })] }],
    ['a path rule', { actionPermissions: { deploy: { execute: { policy: { queries: { q: { rules: [{ property: { path: ['$team', 'parent'] }, operator: '=', value: 'x' }] } } } } } } }],
    ['an empty teamInheritance', { blueprints: [blueprint({ teamInheritance: {} })] }],
    [
      'scorecards',
      {
        scorecards: [
          {
            blueprint: 'service',
            identifier: 'prod',
            title: 'Production readiness',
            filter: { combinator: 'and', conditions: [{ property: '$team', operator: 'containsAny', value: ['Platform Team'] }] },
            rules: [{ identifier: 'owned', title: 'Owned', level: 'Gold', query: { combinator: 'and', conditions: [{ property: '$team', operator: 'isNotEmpty' }] } }],
          },
        ],
      },
    ],
  ])('understands %s: no note, and --strict accepts it', (_name, parts) => {
    expect(checkSnapshot(org(parts), FILE).notes).toEqual([]);
    expect(() => validateSnapshot(org(parts), FILE)).not.toThrow();
  });

  it('notes an empty teamInheritance only where it matters: a blueprint with a relation to _team', () => {
    const plain = checkSnapshot(org({ blueprints: [blueprint({ teamInheritance: {} })] }), FILE);
    expect(plain.notes).toEqual([]);
    const withTeamRelation = checkSnapshot(org({ blueprints: [blueprint({ teamInheritance: {}, relations: { owning_team: { target: '_team', many: true } } })] }), FILE);
    expect(withTeamRelation.notes).toEqual([
      'blueprints[0].teamInheritance: has no path, so it is read as no inheritance: relation "owning_team" to _team is taken as an ordinary relation the migration keeps; give the path if the blueprint inherits its teams over it',
    ]);
  });
});
