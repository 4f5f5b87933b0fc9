import { judgeRule } from '../../src/judge/site-judge.js';
import { afterAll, describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import type { JsonObject } from '../../src/model/json.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { RULES } from '../../src/rules/index.js';
import { temporaryRepository } from './helpers.js';

const jq = await loadJqEngine();
afterAll(async () => jq.close?.());

/** A deployment reads its service's team through the mirror `svc_team` (service.$team). */
const deployment: JsonObject = {
  identifier: 'deployment',
  title: 'Deployment',
  relations: { service: { target: 'service', many: false, required: false } },
  mirrorProperties: { svc_team: { path: 'service.$team' } },
};
const service: JsonObject = { identifier: 'service', title: 'Service', relations: {} };

const promote: JsonObject = {
  identifier: 'promote',
  title: 'Promote',
  trigger: {
    type: 'self-service',
    operation: 'DAY-2',
    blueprintIdentifier: 'deployment',
    userInputs: { properties: { env: { type: 'string', visible: { jqQuery: '.entity.properties.svc_team | index("Platform") != null' } } } },
  },
  invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
};
const own: JsonObject = {
  blueprint: 'deployment',
  identifier: 'own',
  title: 'Own',
  rules: [
    {
      identifier: 'r',
      title: 'R',
      level: 'Gold',
      query: { combinator: 'and', conditions: [{ property: 'svc_team', operator: 'containsAny', value: ['Platform'] }] },
    },
  ],
};

function org(extra: Partial<OrgSnapshot> = {}): OrgSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    organization: { id: 'org', name: 'org' },
    blueprints: [],
    teams: [{ name: 'Platform', identifier: 'platform' }],
    entities: {},
    ...extra,
  };
}

const repository = (files: Record<string, unknown>): Promise<string> =>
  temporaryRepository(Object.fromEntries(Object.entries(files).map(([path, value]) => [path, JSON.stringify(value, null, 2)])), 'tma-facts-');

const categories = (findings: readonly { category: string; verdict?: string }[]) => findings.map((f) => `${f.category}:${f.verdict ?? '-'}`).sort();

describe("the org's team mirrors in file judgements", () => {
  test('an action and a scorecard reading the mirror are found in files as in the org', async () => {
    const orgCatalog = buildCatalog(org({ blueprints: [service, deployment], actions: [promote], scorecards: [own] }), { jq });
    const inOrg = RULES.flatMap((rule) => judgeRule(orgCatalog, rule)).filter((f) => f.resource.type !== 'blueprint');
    expect(categories(inOrg)).toEqual(['action-user-input:breaks', 'scorecard-rule:breaks']);

    const dir = await repository({ '.port/resources/actions.json': [promote], '.port/resources/scorecards.json': [own] });
    const scan = await scanRepositories([dir], { catalog: buildCatalog(org({ blueprints: [service, deployment] }), { jq }) });
    expect(categories(scan.findings)).toEqual(categories(inOrg));
  });

  test('a mirror of something else than $team is not a team read, in files either', async () => {
    const titleMirror = { ...deployment, mirrorProperties: { svc_team: { path: 'service.$title' } } };
    const dir = await repository({ '.port/resources/actions.json': [promote], '.port/resources/scorecards.json': [own] });
    const scan = await scanRepositories([dir], { catalog: buildCatalog(org({ blueprints: [service, titleMirror] }), { jq }) });
    expect(categories(scan.findings)).toEqual([]);
  });
});

/** A blueprint with a direct relation to _team that its inheritance goes over: the migration removes the relation. */
const legacyService: JsonObject = {
  identifier: 'service',
  title: 'Service',
  relations: { owning_team: { target: '_team', many: true, required: false } },
  teamInheritance: { path: 'owning_team' },
};
const reassign: JsonObject = {
  identifier: 'reassign',
  title: 'Reassign',
  trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
  invocationMethod: {
    type: 'UPSERT_ENTITY',
    blueprintIdentifier: 'service',
    mapping: { identifier: '{{ .entity.identifier }}', relations: { owning_team: '{{ .entity.relations.owning_team }}' } },
  },
};

describe('facts of one repository file hold for the others of the scan', () => {
  test('a relation removed by a blueprint in one file is found where an action of another file writes it, as in the org', async () => {
    const orgCatalog = buildCatalog(org({ blueprints: [legacyService], actions: [reassign] }), { jq });
    const inOrg = RULES.flatMap((rule) => judgeRule(orgCatalog, rule)).filter((f) => f.resource.type === 'action');
    expect(categories(inOrg)).toEqual(['action-mapping:breaks']);

    const dir = await repository({ '.port/resources/blueprints.json': [legacyService], '.port/resources/actions.json': [reassign] });
    const scan = await scanRepositories([dir], { catalog: buildCatalog(org(), { jq }) });
    const inActions = scan.findings.filter((f) => f.location.includes('actions.json'));
    expect(categories(inActions)).toEqual(categories(inOrg));
    // Still reported at its own line of its own file.
    expect(inActions[0]?.location).toMatch(/\.port\/resources\/actions\.json:\d+$/);
    expect(inActions[0]?.evidence).toContain('"owning_team": "{{ .entity.relations.owning_team }}"');
  });

  test('a $team mirror defined in one --repo directory holds for scorecards and actions in another', async () => {
    const definitions = await repository({ 'port/blueprints.json': [service, deployment] });
    const uses = await repository({ '.port/resources/actions.json': [promote], '.port/resources/scorecards.json': [own] });
    const scan = await scanRepositories([definitions, uses], { catalog: buildCatalog(org(), { jq }) });
    const inUses = scan.findings.filter((f) => f.location.includes('.port/resources/'));
    expect(categories(inUses)).toEqual(['action-user-input:breaks', 'scorecard-rule:breaks']);
    // The blueprint's own finding (its mirror) is reported once, in its own file.
    expect(scan.findings.filter((f) => f.category === 'mirror-property').map((f) => f.location.replace(/^.*\//, ''))).toEqual(['blueprints.json:19']);
  });

  test('without the blueprint in the scan, the same action and scorecard give nothing', async () => {
    const uses = await repository({ '.port/resources/actions.json': [promote, reassign], '.port/resources/scorecards.json': [own] });
    const scan = await scanRepositories([uses], { catalog: buildCatalog(org(), { jq }) });
    expect(categories(scan.findings)).toEqual([]);
  });
});
