import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { useJqEngine } from '../support/jq-engine.js';
import { temporaryRepository } from './helpers.js';

/** Issue 30, item 4: sources the scan did not read, each read with the parser a real tool would use. */
const jq = useJqEngine();

async function scan(files: Record<string, string>): Promise<{ report: Report; at: string[] }> {
  const root = await temporaryRepository(files, 'tma-sources-');
  const catalog = buildCatalog(repositoryOnlySnapshot([root]), { jq });
  const report = analyze(catalog, await repositoryFindings([root], catalog));
  return { report, at: report.findings.map((f) => `${f.location.slice(basename(root).length + 1)} ${f.category} ${f.verdict ?? '-'}`) };
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe("the Kubernetes exporter's mapping kept in Helm values", () => {
  const values = lines(
    'port-k8s-exporter:', //                                    1
    '  secret:', //                                              2
    '    useExistingSecret: true', //                            3
    '  configMap:', //                                           4
    '    config: |', //                                          5
    '      resources:', //                                       6
    '        - kind: apps/v1/deployments', //                    7
    '          port:', //                                        8
    '            entity:', //                                    9
    '              mappings:', //                               10
    '                - identifier: .metadata.name', //          11
    '                  blueprint: \'"workload"\'', //           12
    '                  team: \'"Platform Engineering"\'', //    13
    '        - kind: v1/namespaces', //                         14
    '          port:', //                                       15
    '            entity:', //                                   16
    '              mappings:', //                               17
    '                - identifier: .metadata.name', //          18
    '                  blueprint: \'"namespace"\'', //          19
    '                  team: \'"platform"\'', //                20
  );

  test('a team title in the config block breaks at its own line; a mapping that sets an identifier-form team, or none, is nothing', async () => {
    const { report, at } = await scan({ 'charts/values.yaml': values });
    expect(at).toEqual(['charts/values.yaml:13 integration-mapping breaks']);
    expect(report.findings[0]!.evidence).toBe(`team: '"Platform Engineering"'`);
  });

  test('values named port.yaml that hold the mapping are values, not a GitOps entity', async () => {
    const inline = lines('configMap:', '  config:', '    resources:', '      - kind: v1/namespaces', '        port:', '          entity:', '            mappings:', "              - identifier: '\"management\"'", "                blueprint: '\"cluster\"'", "                team: '[\"Platform Engineering\"]'");
    const { at } = await scan({ 'argocd/values/port.yaml': inline, 'services/api/port.yaml': lines('identifier: api', 'blueprint: service', 'team: Team Alpha') });
    expect(at).toEqual(['services/api/port.yaml:3 external-ownership breaks', 'argocd/values/port.yaml:10 integration-mapping breaks']);
  });

  test("the exporter's own config.yaml and a chart's templates: the first is read, the second is no YAML until rendered", async () => {
    const config = lines('resources:', '  - kind: v1/pods', '    port:', '      entity:', '        mappings:', '          - identifier: .metadata.name', '            blueprint: \'"pod"\'', '            team: \'"SRE On-Call"\'');
    const template = lines('apiVersion: v1', 'kind: ConfigMap', 'data:', '  config.yaml:', '    {{- .Values.configMap.config | toYaml | nindent 4 }}', '# mappings: see values');
    const { report, at } = await scan({ 'exporter/config.yaml': config, 'charts/templates/configmap.yaml': template });
    expect(at).toEqual(['exporter/config.yaml:8 integration-mapping breaks']);
    expect(report.incomplete).toEqual([]);
  });
});

describe("the GitHub app's defaultTeam (port-app-config.yml)", () => {
  // The GitHub app gives every port.yml entity without a team this one, by name: an entity's team value.
  const config = (team: string) => lines('specPath:', '  - "**/port.yml"', 'defaultBlueprint: service', `defaultTeam: "${team}"`);

  test('a title breaks at its line and says the org has not migrated; an identifier-form value alone is for review (issue 39: nothing tells it is one)', async () => {
    const titled = await scan({ '.github/port-app-config.yml': config('Backend Team') });
    expect(titled.at).toEqual(['.github/port-app-config.yml:4 external-ownership breaks']);
    expect((titled.report.notes ?? []).find((n) => n.startsWith('migration state'))).toMatch(/team value "Backend Team" is a title/);
    expect((await scan({ '.github/port-app-config.yml': config('backend') })).at).toEqual(['.github/port-app-config.yml:4 external-ownership review']);
  });
});

describe('files that only look like ours are said, not counted against the scan', () => {
  test('a project template is skipped with a note outside git; a YAML file that names a mapping but is no YAML is a gap (issue 38), a chart template is read with its actions blanked', async () => {
    const mapping = lines('resources:', '  - kind: repository', '    port:', '      entity:', '        mappings:', "          identifier: '{{ cookiecutter.slug }}'", '          team: \'"Platform Engineering"\'');
    const broken = lines('resources:', '  - kind: v1/services', '    port:', '      entity:', '        mappings:', '          ports: [.spec.ports[] | {port: .port}]', '          extra: [a, b');
    const chart = lines('{{- if .Values.enabled }}', 'resources:', '  - kind: v1/pods', '    port:', '      entity:', '        mappings:', '          - identifier: {{ .Values.id | quote }}', '            team: \'"SRE On-Call"\'', '{{- end }}');
    const { report, at } = await scan({ 'cli/cookiecutter/{{cookiecutter.slug}}/.port/resources/port-app-config.yml': mapping, 'examples/k8s-integration.yml': broken, 'charts/templates/mapping.yaml': chart });
    expect(at).toEqual(['charts/templates/mapping.yaml:8 integration-mapping breaks']);
    expect(report.incomplete).toEqual([expect.objectContaining({ resource: expect.stringMatching(/\/examples\/k8s-integration\.yml:\d+$/), reason: expect.stringContaining('not valid YAML') })]);
    expect(report.notes).toContainEqual(expect.stringMatching(/\/cli\/cookiecutter\/: skipped, a project template \(its paths hold \{\{ \}\} placeholders\)/));
  });
});

describe("workflow steps of the service's GitHub action", () => {
  const step = (operation: string, inputs: string[]) => [
    '      - uses: port-labs/port-github-action@v1',
    '        with:',
    '          clientId: ${{ secrets.PORT_CLIENT_ID }}',
    '          clientSecret: ${{ secrets.PORT_CLIENT_SECRET }}',
    `          operation: ${operation}`,
    ...inputs.map((input) => `          ${input}`),
  ];
  const workflow = (...steps: string[][]) => lines('on: push', 'jobs:', '  sync:', '    runs-on: ubuntu-latest', '    steps:', ...steps.flat());

  test('a SEARCH whose query compares $team with a title breaks at the rule; with identifier-form values it is nothing', async () => {
    const query = (value: string) => ['query: |', '  {', '    "combinator": "and",', '    "rules": [', '      {"property": "$blueprint", "operator": "=", "value": "service"},', `      {"property": "$team", "operator": "containsAny", "value": ["${value}"]}`, '    ]', '  }'];
    const { at } = await scan({ '.github/workflows/find.yml': workflow(step('SEARCH', query('Platform Engineering')), step('SEARCH', query('platform'))) });
    // Line 16: the `$team` rule of the first step's query block.
    expect(at).toEqual(['.github/workflows/find.yml:16 external-ownership breaks']);
  });

  test("the service's report sender filters entities with one search rule: filter_rule on $team with a title breaks, an identifier is nothing", async () => {
    // port-labs/port-sender reads `filter_rule` as one rule {property, operator, value} on the blueprint's entities.
    const sender = (rule: string) => [
      '      - uses: port-labs/port-sender@v0.2.7',
      '        with:',
      '          operation_kind: scorecard_reminder',
      '          blueprint: service',
      '          scorecard: productionReadiness',
      `          filter_rule: '${rule}'`,
    ];
    const { at } = await scan({
      '.github/workflows/remind.yml': workflow(
        sender('{"property": "$team", "operator": "containsAny", "value": ["Checkout Squad"]}'),
        sender('{"property": "$team", "operator": "containsAny", "value": ["checkout"]}'),
        sender('{"property": "tier", "operator": "=", "value": "Gold Tier"}'),
      ),
    });
    expect(at).toEqual(['.github/workflows/remind.yml:11 external-ownership breaks']);
  });

  test("a run: script that sends an entity to the API is read at the file's lines: a title breaks, a team input the workflow was given is nothing, another expression is a review", async () => {
    const send = (body: string) => [
      '      - run: |',
      '          curl -s -X POST "https://api.getport.io/v1/blueprints/service/entities?upsert=true" \\',
      `            -H "Authorization: Bearer $TOKEN" -d '${body}'`,
    ];
    const register = workflow(
      send('{"identifier": "a", "team": ["Checkout Squad"]}'),
      send('{"identifier": "b", "team": ["${{ inputs.team }}"]}'),
      send('{"identifier": "c", "team": "${{ fromJson(inputs.port_payload).owner }}"}'),
      send('{"identifier": "d", "team": ["${{ steps.owner.outputs.team }}"]}'),
      send('{"identifier": "e", "team": ["checkout"]}'),
    );
    // The action the repository keeps dispatches the workflow with a team input: inputs.team is a team, passed on.
    const action = JSON.stringify({ identifier: 'register', trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: { team: { type: 'string', format: 'team' } } } }, invocationMethod: { type: 'GITHUB', org: 'acme', repo: 'x', workflow: 'register.yml' } });
    const { at, report } = await scan({ '.github/workflows/register.yml': register, 'port/register.action.json': action });
    expect([...at].sort()).toEqual(['.github/workflows/register.yml:17 external-ownership review', '.github/workflows/register.yml:8 external-ownership breaks']);
    // Without it, nothing says the input holds a team: review.
    expect([...(await scan({ '.github/workflows/register.yml': register })).at].sort()).toEqual([
      '.github/workflows/register.yml:11 external-ownership review',
      '.github/workflows/register.yml:17 external-ownership review',
      '.github/workflows/register.yml:8 external-ownership breaks',
    ]);
    // The block's text is the file's without its indentation: nothing the patch could place.
    expect(report.findings.filter((f) => f.rewrite !== undefined)).toEqual([]);
  });

  test("another CI's script that sends an entity to the API (GitLab's script: list) is read at the file's own lines", async () => {
    const ci = lines(
      'stages: [deploy]', //                                                                       1
      'register:', //                                                                              2
      '  stage: deploy', //                                                                        3
      '  script:', //                                                                              4
      '    - echo "registering"', //                                                               5
      '    - |', //                                                                                6
      '      curl -s -X POST "https://api.getport.io/v1/blueprints/service/entities?upsert=true" \\', // 7
      '        -H "Authorization: Bearer $PORT_TOKEN" \\', //                                    8
      `        -d '{"identifier": "checkout", "team": ["Checkout Squad"]}'`, //                      9
    );
    const { at } = await scan({ '.gitlab-ci.yml': ci });
    expect(at).toEqual(['.gitlab-ci.yml:9 external-ownership breaks']);
  });

  test('a workflow called port.yml is a workflow; a composite action is read for the same steps', async () => {
    const upsert = step('UPSERT', ['identifier: svc', 'blueprint: service', `team: '["Platform Engineering"]'`]);
    const composite = lines('name: register', 'runs:', '  using: composite', '  steps:', ...upsert.map((line) => line.slice(4)));
    const { at } = await scan({ '.github/workflows/port.yml': workflow(upsert), '.github/actions/register/action.yml': composite });
    expect(at).toEqual(['.github/actions/register/action.yml:12 external-ownership breaks', '.github/workflows/port.yml:13 external-ownership breaks']);
  });
});

describe('Terraform values that reach resources through module calls, and bodies a configuration sends', () => {
  test('a module called with a local holding a title breaks where the title is written; a call with an identifier-form value is nothing', async () => {
    const { at } = await scan({
      'main.tf': lines('locals {', '  owners = ["Platform Engineering"]', '}', 'module "checkout" {', '  source = "./modules/service"', '  name   = "checkout"', '  teams  = local.owners', '}', 'module "billing" {', '  source = "./modules/service"', '  name   = "billing"', '  teams  = ["payments"]', '}'),
      'modules/service/main.tf': lines('variable "name" {}', 'variable "teams" {}', 'resource "port_entity" "this" {', '  identifier = var.name', '  blueprint  = "service"', '  teams      = var.teams', '}'),
    });
    expect(at).toEqual(['main.tf:2 external-ownership breaks']);
  });

  test('a module called more often than the scan judges it says so: the rest of its calls are not read', async () => {
    const calls = Array.from({ length: 34 }, (_, i) => lines(`module "svc${i}" {`, '  source = "./modules/service"', `  teams  = ["${i === 33 ? 'Platform Engineering' : 'platform'}"]`, '}')).join('');
    const { report, at } = await scan({ 'main.tf': calls, 'modules/service/main.tf': lines('variable "teams" {}', 'resource "port_entity" "this" {', '  blueprint = "service"', '  teams     = var.teams', '}') });
    // The 32 calls judged hold identifier-form values the scan alone cannot tell (review); the title of the 34th is not read.
    expect(at).toHaveLength(32);
    expect(at.filter((entry) => !entry.endsWith('external-ownership review'))).toEqual([]);
    expect(report.notes).toContainEqual(expect.stringMatching(/\/modules\/service\/: a module the configurations call 34 times; its files were judged with the first 32 calls' values$/));
  });

  test('jsonencode bodies sent to the service by restapi_object or an http data source are the resources they write', async () => {
    const body = lines(
      'resource "restapi_object" "service" {', //   1
      '  path = "/blueprints"', //                    2
      '  data = jsonencode({', //                     3
      '    identifier = "service"', //                4
      '    teamInheritance = { path = "domain" }', // 5
      '  })', //                                      6
      '}', //                                         7
      'data "http" "entity" {', //                    8
      '  url    = "https://api.getport.io/v1/blueprints/service/entities"', // 9
      '  method = "POST"', //                        10
      '  request_body = jsonencode({', //           11
      '    identifier = "checkout"', //             12
      '    team       = ["Platform Engineering"]', // 13
      '  })', //                                     14
      '}', //                                        15
    );
    const { at } = await scan({ 'api/main.tf': body, 'elsewhere/main.tf': body.replace('https://api.getport.io/v1/blueprints/service/entities', 'https://example.com/items') });
    expect(at).toEqual(['api/main.tf:13 external-ownership breaks', 'api/main.tf:5 external-ownership breaks']);
  });
});

describe('relations to _team that are not ownership', () => {
  const blueprint = (extra: object[] = []) =>
    JSON.stringify(
      [
        ...extra,
        {
          identifier: 'service',
          title: 'Service',
          schema: { properties: {} },
          relations: { applies_to_team: { title: 'Applies to', target: '_team', many: true, required: false }, owning_team: { title: 'Owning team', target: '_team', many: false, required: false } },
        },
      ],
      null,
      2,
    );

  test('only a relation that says owner gets advice, and none once the files describe a migrated org', async () => {
    // No file says whether the org has migrated: a relation to _team is the beta's (data to move) or a migrated org's (nothing to move).
    const unknown = await scan({ 'blueprints.json': blueprint() });
    expect(unknown.at).toEqual([expect.stringMatching(/^blueprints\.json:\d+ relation-ownership review$/)]);
    expect(unknown.report.findings[0]!.evidence).toContain('owning_team');
    expect(unknown.report.findings[0]!.reason).toContain('No file says whether the org has migrated');
    // Files written before the migration (a team title in an entity): the data must move, a step to take.
    const before = await scan({ 'blueprints.json': blueprint(), 'port.yml': '- identifier: cart\n  blueprint: service\n  team: Platform Team\n' });
    expect(before.at).toEqual(expect.arrayContaining([expect.stringMatching(/^blueprints\.json:\d+ relation-ownership -$/)]));
    const after = await scan({ 'blueprints.json': blueprint([{ identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} }]) });
    expect(after.at).toEqual([]);
  });
});
