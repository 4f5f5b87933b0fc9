import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import type { JsonObject } from '../../src/model/json.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { RULES } from '../../src/rules/index.js';

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

async function repository(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tma-facts-'));
  for (const [path, value] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), JSON.stringify(value, null, 2));
  }
  return dir;
}

const categories = (findings: readonly { category: string; verdict?: string }[]) => findings.map((f) => `${f.category}:${f.verdict ?? '-'}`).sort();

describe("the org's team mirrors in file judgements", () => {
  test('an action and a scorecard reading the mirror are found in files as in the org', async () => {
    const orgCatalog = buildCatalog(org({ blueprints: [service, deployment], actions: [promote], scorecards: [own] }), { jq });
    const inOrg = RULES.flatMap((rule) => rule.check(orgCatalog)).filter((f) => f.resource.type !== 'blueprint');
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
