/**
 * Issue 30 with issue 29: the forms the judge owns (built-in values, team searches, team-typed
 * inputs) reached through repository files, by the same rules as in an org. Expected classes of
 * jq are computed by running it in both worlds (test/judge/two-worlds.ts), not typed by hand.
 */
import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import type { JsonValue } from '../../src/model/json.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { expectedClass, expectedVerdict, TEAM_SETS, TEAMS } from '../judge/two-worlds.js';
import { useJqEngine } from '../support/jq-engine.js';
import { temporaryRepository } from './helpers.js';

const jq = useJqEngine();

async function scan(files: Record<string, string>, teamsMap?: Record<string, string>): Promise<{ report: Report; at: string[] }> {
  const root = await temporaryRepository(files, 'tma-judge-forms-');
  const catalog = buildCatalog(repositoryOnlySnapshot([root]), { jq, ...(teamsMap && { teamsMap }) });
  const report = analyze(catalog, await repositoryFindings([root], catalog));
  return { report, at: report.findings.map((f) => `${f.location.slice(basename(root).length + 1)} ${f.category} ${f.verdict ?? '-'}`).sort() };
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;
const stateNote = (report: Report) => (report.notes ?? []).find((note) => note.startsWith('migration state of repository'));

describe('"My Teams" in a page the repository keeps', () => {
  const rule = (value: string) => `{ "property": "$team", "operator": "containsAny", "value": ["${value}"] }`;
  const page = (value: string) =>
    lines(
      '{', //                                                                                      1
      '  "identifier": "my_services",', //                                                        2
      '  "title": "My services",', //                                                             3
      '  "widgets": [', //                                                                         4
      '    {', //                                                                                  5
      '      "id": "services", "type": "table-entities-explorer", "blueprint": "service",', //   6
      `      "dataset": { "combinator": "and", "rules": [ ${rule(value)} ] }`, //                    7
      '    }', //                                                                                  8
      '  ]', //                                                                                    9
      '}',
    );

  test('the viewer\'s own teams, whichever the world: no finding, and it says nothing of the state', async () => {
    const { report, at } = await scan({ 'port/pages/my-services.json': page('My Teams') });
    expect(at).toEqual([]);
    expect(stateNote(report)).toMatch(/no file says whether the org has migrated/);
  });

  test('a title in the same place breaks, and is what says the org has not migrated', async () => {
    const { report, at } = await scan({ 'port/pages/my-services.json': page('Checkout Squad') });
    expect(at).toEqual(['port/pages/my-services.json:7 page-widget breaks']);
    expect(stateNote(report)).toMatch(/judged as not migrated: team value "Checkout Squad" is a title/);
  });

  test('in Terraform: a port_page widget written with jsonencode', async () => {
    const tf = lines(
      'resource "port_page" "mine" {', //                                                        1
      '  identifier = "my_services"', //                                                         2
      '  title      = "My services"', //                                                         3
      '  type       = "dashboard"', //                                                           4
      '  widgets = [jsonencode({', //                                                            5
      '    id = "services", type = "table-entities-explorer", blueprint = "service"', //        6
      '    dataset = { combinator = "and", rules = [{ property = "$team", operator = "containsAny", value = ["My Teams"] }] }',
      '  })]',
      '}',
    );
    const { report, at } = await scan({ 'infra/pages.tf': tf });
    expect(at).toEqual([]);
    expect(stateNote(report)).toMatch(/no file says whether the org has migrated/);
  });
});

describe('a mapping that finds its team by a search over _team (port-app-config.yml)', () => {
  // The integration's own written form: the query's fields are jq string literals, the value jq over the source.
  const config = (property: string) =>
    lines(
      'resources:', //                                         1
      '  - kind: repository', //                               2
      '    selector:', //                                      3
      "      query: 'true'", //                                4
      '    port:', //                                          5
      '      entity:', //                                      6
      '        mappings:', //                                  7
      '          identifier: .name', //                        8
      `          blueprint: '"service"'`, //                   9
      '          team:', //                                    10
      `            combinator: '"and"'`, //                    11
      '            rules:', //                                 12
      `              - property: '"${property}"'`, //          13
      `                operator: '"="'`, //                    14
      '                value: .custom_properties.owning_team',
    );

  test('by $title: it finds teams by their title, which a team keeps, so it is no finding', async () => {
    const { at } = await scan({ '.github/port-app-config.yml': config('$title') });
    expect(at).toEqual([]);
  });

  test('by $identifier: the source must hold identifiers, so a person checks it', async () => {
    const { at } = await scan({ '.github/port-app-config.yml': config('$identifier') });
    expect(at).toHaveLength(1);
    expect(at[0]).toMatch(/^\.github\/port-app-config\.yml:1[0-3] integration-mapping review$/);
  });
});

describe('a team-typed action input in Terraform, with a computed default', () => {
  const action = (expression: string) =>
    lines(
      'resource "port_action" "assign" {', //                         1
      '  identifier = "assign"', //                                  2
      '  title      = "Assign"', //                                  3
      '  self_service_trigger = {', //                               4
      '    operation            = "DAY-2"', //                       5
      '    blueprint_identifier = "service"', //                     6
      '    user_properties = {', //                                  7
      '      string_props = {', //                                   8
      '        owner = {', //                                        9
      '          title            = "Owning team"', //              10
      '          format           = "team"', //                     11
      `          default_jq_query = ${JSON.stringify(expression)}`, // 12
      '        }',
      '      }',
      '    }',
      '  }',
      '  webhook_method = { url = "https://example.com/assign" }',
      '}',
    );

  const TEAMS_TF = lines('resource "port_team" "data" {', '  name = "Data Science"', '}');
  for (const expression of ['.user.team[0]', '.user.teams[0].name', '.entity.team | last']) {
    test(`default ${expression}: with the teams' identifiers known (--teams-map), the verdict jq gives in both worlds for a team value`, async () => {
      const verdict = expectedVerdict(expectedClass(jq, 'user-input', expression, true), 'team-value');
      const { at } = await scan({ 'infra/actions.tf': action(expression), 'infra/teams.tf': TEAMS_TF }, { 'Data Science': 'data_science' });
      expect(at).toEqual(verdict === 'unaffected' ? [] : [`infra/actions.tf:12 action-user-input ${verdict}`]);
    });
  }

  // Read alone, the repository does not say which teams the org has: the stand-ins stand for them,
  // so the verdict is the one the teams give when their identifiers are known.
  for (const expression of ['.user.team[0]', '.user.teams[0].name']) {
    test(`default ${expression}: without identifiers, the verdict jq gives in both worlds on teams of the usual shapes`, async () => {
      const verdict = expectedVerdict(expectedClass(jq, 'user-input', expression, true), 'team-value');
      const { at } = await scan({ 'infra/actions.tf': action(expression), 'infra/teams.tf': TEAMS_TF });
      expect(at).toEqual(verdict === 'unaffected' ? [] : [`infra/actions.tf:12 action-user-input ${verdict}`]);
    });
  }
});

describe('a run passes on what a team-typed input holds (issue 30, causes 2 and 5)', () => {
  const actions = (team: string, input: Record<string, unknown>) =>
    JSON.stringify(
      [
        {
          identifier: 'hand_over',
          title: 'Hand over',
          trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { picked: input } } },
          invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .entity.identifier }}', team } },
        },
      ],
      null,
      2,
    );
  /** What the input holds in each world (a `_user` entity's teams, `_team` entities), run by jq: does the mapping's team follow the teams? */
  const follows = (expression: string, held: (teams: typeof TEAMS, world: 'before' | 'after') => JsonValue) =>
    TEAM_SETS.every((set) => {
      const teams = TEAMS.filter((t) => set.includes(t.name));
      const run = (world: 'before' | 'after') => jq.evaluate({ inputs: { picked: held(teams, world) } }, expression);
      const before = run('before');
      const after = run('after');
      if (!before.ok || !after.ok) return false;
      const asIdentifiers = JSON.stringify(before.values).replace(/"([^"]*)"/g, (text, value: string) => JSON.stringify(TEAMS.find((t) => t.name === value)?.identifier ?? value));
      return JSON.stringify(after.values) === asIdentifiers;
    });

  test('the teams of a _user the user picked ({{ .inputs.x.team }}): titles before, identifiers after, as the team must be, so no finding', async () => {
    const user = (teams: typeof TEAMS, world: 'before' | 'after') => ({ identifier: 'someone@example.com', team: teams.map((t) => (world === 'before' ? t.name : t.identifier)) });
    expect(follows('.inputs.picked.team', user)).toBe(true);
    const { at } = await scan({ 'port/actions.json': actions('{{ .inputs.picked.team }}', { type: 'string', format: 'entity', blueprint: '_user' }) });
    expect(at).toEqual([]);
  });

  test('the identifiers of _team entities the user picked ({{ .inputs.x | map(.identifier) }}) are written for identifiers: nothing in a repository read as migrated (cause 2)', async () => {
    // A _team entity's identifier is the team's identifier, computed here by jq for every team set.
    for (const set of TEAM_SETS) {
      const teams = TEAMS.filter((t) => set.includes(t.name));
      const picked: JsonValue = teams.map((t) => ({ identifier: t.identifier, title: t.name }));
      expect(jq.evaluate({ inputs: { picked } }, '.inputs.picked | map(.identifier)')).toMatchObject({ ok: true, values: [teams.map((t) => t.identifier)] });
    }
    const migrated = JSON.stringify([{ identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} }], null, 2);
    const { report, at } = await scan({
      'port/blueprints.json': migrated,
      'port/actions.json': actions('{{ .inputs.picked | map(.identifier) }}', { type: 'array', items: { type: 'string', format: 'entity', blueprint: '_team' } }),
    });
    expect(stateNote(report)).toMatch(/judged as migrated/);
    expect(at).toEqual([]);
  });

  test('a plain string input passed on as the team is still for review: nothing says it holds a team', async () => {
    const { at } = await scan({ 'port/actions.json': actions('{{ .inputs.picked }}', { type: 'string' }) });
    expect(at).toEqual([expect.stringMatching(/^port\/actions\.json:\d+ action-mapping review$/)]);
  });
});
