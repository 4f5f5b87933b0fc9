import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

/**
 * Issue 22, "Why": the false findings judged by hand on real material each have a case here that
 * must stay quiet, with and without the org: values that already are identifiers or only pass team
 * values on, `"team": ""`, and the docs' sample of the jq context (JSON file or markdown page).
 */
const FILES: Record<string, string> = {
  'actions/notify.json': JSON.stringify(
    {
      identifier: 'notify_owners',
      title: 'Notify owners',
      trigger: {
        type: 'self-service',
        operation: 'DAY-2',
        blueprintIdentifier: 'service',
        userInputs: {
          properties: {
            teams: { type: 'array', items: { type: 'string', format: 'entity', blueprint: '_team' } },
            owning_team: { type: 'string', format: 'entity', blueprint: '_team' },
            team: { type: 'string', format: 'team' },
          },
        },
      },
      invocationMethod: {
        type: 'WEBHOOK',
        url: 'https://hooks.example.com/notify',
        body: { teams: '{{ .inputs.teams | map(.identifier) }}', owner: '{{ .inputs.owning_team.identifier }}', team: '{{ .inputs.team }}' },
      },
    },
    null,
    2,
  ),
  'blueprints/deployment.json': JSON.stringify(
    [
      {
        identifier: 'deployment',
        title: 'Deployment',
        schema: { properties: {} },
        relations: { service: { target: 'service', many: false, required: false } },
        mirrorProperties: { owner_ids: { title: 'Owners', path: 'service.$team.$identifier' } },
        calculationProperties: { owners_text: { title: 'Owners', type: 'string', calculation: '.properties.owner_ids | join(", ")' } },
      },
    ],
    null,
    2,
  ),
  'entities/svc-a.json': '{ "identifier": "svc-a", "blueprint": "service", "title": "A", "team": "" }\n',
  'services/a/port.yml': 'identifier: svc-b\nblueprint: service\ntitle: B\nteam: ""\n',
  '.github/port-app-config.yml': `resources:
  - kind: repository
    selector:
      query: "true"
    port:
      entity:
        mappings:
          identifier: .name
          title: .name
          blueprint: '"service"'
          team: '""'
`,
  'docs/context.md': `# The jq context of an action run

\`\`\`json
{
  "trigger": { "by": { "orgId": "org_1", "userId": "u1", "user": { "email": "jane@example.com" } }, "origin": "UI" },
  "inputs": { "reason": "rollout" },
  "entity": { "identifier": "checkout", "title": "Checkout", "team": ["Platform Team"], "properties": {}, "relations": {} }
}
\`\`\`
`,
};

const jq = useJqEngine();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'why-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The control: a team title in Terraform permissions, which must be found, so an empty list above means quiet, not unread.
  mkdirSync(join(dir, 'control'));
  writeFileSync(join(dir, 'control/main.tf'), CONTROL);
  // The docs' context sample as a JSON file too (the corpus keeps one).
  cpSync('fixtures/repo-corpus/docs/samples/action-context.json', join(dir, 'docs/action-context.json'));
});

const CONTROL = `resource "port_action_permissions" "deploy" {
  action_identifier = "deploy"
  permissions = {
    "execute" : {
      "roles" : ["Admin"],
      "users" : [],
      "teams" : ["My Team"],
      "owned_by_team" : false
    },
    "approve" : { "roles" : [], "users" : [], "teams" : [] }
  }
}
`;

const scan = async (snapshot: OrgSnapshot): Promise<Report> => {
  const catalog = buildCatalog(snapshot, { jq });
  return analyze(catalog, await repositoryFindings([dir], catalog));
};

describe('the false findings of issue 22 stay quiet', () => {
  test.each([
    ['without the org', async () => repositoryOnlySnapshot([dir])],
    ['with the org', async () => readSnapshotFile('fixtures/repo-corpus-org.json')],
  ])('%s: identifiers passed on, a team input copied into a body, a $team.$identifier mirror and its calculation, "team": "", the docs context sample', async (_, snapshot) => {
    const report = await scan(await snapshot());
    const found = report.findings.filter((f) => f.resource.type === 'file').map((f) => `${f.location} ${f.category} ${f.verdict}`);
    const control = (line: string) => line.includes('/control/main.tf:7 team-permission-identifiers ');
    expect(found.filter((line) => !control(line))).toEqual([]);
    expect(found.filter(control)).toHaveLength(1);
  });
});
