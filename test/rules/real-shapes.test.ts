/**
 * Shapes the service really returns that the rules once refused (issue 11, docs/formats.md, the org snapshot):
 * each is analysed like its familiar form, at its own location.
 */
import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];
const page = (identifier: string, widgets: JsonObject[], extra: JsonObject = {}): JsonObject => ({ identifier, title: identifier, type: 'dashboard', widgets, ...extra });
const dashboard = (widgets: JsonObject[]): JsonObject => ({ id: 'dash', type: 'dashboard-widget', layout: [{ height: 400, columns: [{ id: 'n', size: 12 }] }], widgets });
const numberChart = (dataset: unknown, extra: JsonObject = {}): JsonObject =>
  ({ id: 'n', type: 'entities-number-chart', title: 'Count', icon: 'Metric', blueprint: 'repository', calculationBy: 'entities', func: 'count', dataset, ...extra }) as JsonObject;
const P = (identifier: string) => ({ type: 'page' as const, identifier });

ruleTester('page-widget', {
  valid: [
    {
      name: 'an array dataset, a path rule and a nested excludedFields that are all unaffected',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pages: [
          page('home', [
            dashboard([
              numberChart([
                { property: { path: ['service', 'tier'] }, operator: '=', value: 'Payments' },
                { property: '$team', operator: 'isNotEmpty' },
              ]),
              { id: 't', type: 'table-entities-explorer', blueprint: 'repository', excludedFields: ['relations.service', '$team'] },
            ]),
          ]),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'a number chart in a dashboard whose array dataset filters $team by title and a removed relation in a group',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pages: [
          page('home', [
            dashboard([
              { id: 'md', type: 'markdown', markdown: '# Home' },
              numberChart([
                { property: '$team', operator: 'containsAny', value: ['Platform Team'] },
                { combinator: 'or', rules: [{ property: 'owning_team', operator: 'isNotEmpty' }] },
              ]),
            ]),
          ]),
        ],
      }),
      findings: [
        {
          location: 'widgets[0].widgets[1].dataset[0]',
          resource: P('home'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['platform'] }),
          reason: '"Platform Team"',
        },
        {
          location: 'widgets[0].widgets[1].dataset[1].rules[0]',
          resource: P('home'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'isNotEmpty' }),
          reason: 'relation "owning_team"',
        },
      ],
    },
    {
      name: 'excludedFields naming a removed relation as relations.<name> or plainly, at top level and nested',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pages: [
          page(
            'repos',
            [
              { id: 't', type: 'table-entities-explorer', excludedFields: ['relations.owning_team', 'url'] },
              dashboard([
                { id: 'a', type: 'table-entities-explorer', excludedFields: ['relations.owning_team'] },
                { id: 'b', type: 'table-entities-explorer', excludedFields: ['owning_team', 'relations.owning_team'] },
              ]),
            ],
            { blueprint: 'repository' },
          ),
        ],
      }),
      findings: [
        { location: 'widgets[0].excludedFields', resource: P('repos'), verdict: 'breaks', rewrite: '["$team","url"]', reason: '"owning_team"' },
        { location: 'widgets[1].widgets[0].excludedFields', resource: P('repos'), verdict: 'breaks', rewrite: '["$team"]' },
        { location: 'widgets[1].widgets[1].excludedFields', resource: P('repos'), verdict: 'breaks', rewrite: '["$team"]' },
      ],
    },
    {
      name: 'path rules through $team and through a removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pages: [
          page('paths', [
            numberChart({
              combinator: 'and',
              rules: [
                { property: { path: ['$team'] }, operator: 'in', value: ['Payments'] },
                { property: { path: ['owning_team', 'title'] }, operator: '=', value: 'x' },
                { property: { path: ['$team', 'parent'] }, operator: '=', value: 'eng' },
                { property: { path: ['service', '$team'] }, operator: 'containsAny', value: ['Platform Team'] },
                { property: { path: ['service', '$team'] }, operator: 'containsAny', value: ['platform'] },
              ],
            }),
          ]),
        ],
      }),
      findings: [
        {
          location: 'widgets[0].dataset.rules[0]',
          resource: P('paths'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: { path: ['$team'] }, operator: 'in', value: ['payments'] }),
        },
        {
          location: 'widgets[0].dataset.rules[1]',
          resource: P('paths'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: { path: ['$team', 'title'] }, operator: '=', value: 'x' }),
          reason: 'a path through relation "owning_team"',
        },
        { location: 'widgets[0].dataset.rules[2]', resource: P('paths'), verdict: 'review', rewrite: undefined, reason: 'follows $team on to "parent"' },
        {
          location: 'widgets[0].dataset.rules[3]',
          resource: P('paths'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: { path: ['service', '$team'] }, operator: 'containsAny', value: ['platform'] }),
        },
        // Issue 21: an identifier before the migration starts matching once teams are identifiers.
        { location: 'widgets[0].dataset.rules[4]', resource: P('paths'), verdict: 'breaks', reason: 'written for team identifiers' },
      ],
    },
    {
      name: 'queries and jq under keys the rule does not know (a chart\'s filters list, a future setting)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pages: [
          page('odd', [
            numberChart(undefined, {
              blueprint: 'service',
              filters: [{ combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: ['Payments'] }] }],
              futureSetting: { visible: { jqQuery: '.user.team | contains(["Payments"])' } },
            }),
          ]),
        ],
      }),
      findings: [
        { location: 'widgets[0].filters[0].rules[0]', resource: P('odd'), verdict: 'breaks', rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments'] }) },
        { location: 'widgets[0].futureSetting.visible.jqQuery', resource: P('odd'), reason: 'Payments' },
      ],
    },
  ],
});

const upsert = (mapping: JsonObject): JsonObject => ({
  identifier: 'register',
  title: 'Register',
  trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'repository', userInputs: { properties: {} } },
  invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'repository', mapping },
});
const A = { type: 'action' as const, identifier: 'register' };

ruleTester('action-mapping', {
  valid: [
    {
      name: 'relation values as lists that read nothing of teams',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, actions: [upsert({ identifier: '{{ .inputs.name }}', relations: { service: ['{{ .inputs.id }}'] } })] }),
    },
  ],
  invalid: [
    {
      name: 'team and relations given as lists: each element at its own location, a removed relation as one write',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          upsert({
            identifier: '{{ .inputs.name }}',
            team: ['"Payments"', '{{ .inputs.team }}'],
            relations: { owning_team: ['{{ .inputs.id }}'], service: ['{{ .inputs.id }}', '{{ .entity.relations.owning_team }}'] },
          }),
        ],
      }),
      findings: [
        { location: 'invocationMethod.mapping.team[0]', resource: A, verdict: 'breaks', rewrite: '"payments"', reason: 'sets the team meta property' },
        { location: 'invocationMethod.mapping.team[1]', resource: A, reason: 'sets the team meta property' },
        {
          location: 'invocationMethod.mapping.relations.owning_team',
          resource: A,
          verdict: 'breaks',
          evidence: '["{{ .inputs.id }}"]',
          rewrite: JSON.stringify({ team: ['{{ .inputs.id }}'] }),
        },
        { location: 'invocationMethod.mapping.relations.service[1]', resource: A, verdict: 'breaks', reason: 'relation "owning_team"' },
      ],
    },
    {
      name: 'relation values given as search queries: a removed relation is a write, a kept one has its rules judged',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          upsert({
            identifier: '{{ .inputs.name }}',
            relations: {
              owning_team: { combinator: 'and', rules: [{ property: '$identifier', operator: '=', value: 'x' }] },
              service: { combinator: 'and', rules: [{ property: '$team', operator: 'in', value: ['Payments'] }] },
            },
          }),
        ],
      }),
      findings: [
        { location: 'invocationMethod.mapping.relations.owning_team', resource: A, verdict: 'breaks' },
        { location: 'invocationMethod.mapping.relations.service.rules[0]', resource: A, verdict: 'breaks', reason: 'The search query of relation "service"' },
      ],
    },
    {
      name: 'team as a search query over _team',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [upsert({ identifier: '{{ .inputs.name }}', team: { combinator: 'and', rules: [{ property: '$team', operator: 'in', value: ['Payments'] }] } })],
      }),
      findings: [{ location: 'invocationMethod.mapping.team.rules[0]', resource: A, verdict: 'breaks', rewrite: JSON.stringify({ property: '$team', operator: 'in', value: ['payments'] }) }],
    },
  ],
});

const integration = (mappings: JsonObject): JsonObject => ({
  installationId: 'github-ocean',
  integrationType: 'github-ocean',
  config: { resources: [{ kind: 'repository', selector: { query: 'true' }, port: { entity: { mappings } } }] },
});
const I = { type: 'integration' as const, identifier: 'github-ocean' };

ruleTester('integration-mapping', {
  valid: [
    {
      name: 'a team list that is empty, relation lists to kept relations',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, integrations: [integration({ identifier: '.name', blueprint: '"repository"', team: [], relations: { service: ['.service'] } })] }),
    },
  ],
  invalid: [
    {
      name: 'team as a list of jq strings, and a removed relation written as a list',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [integration({ identifier: '.name', blueprint: '"repository"', team: ['.owner.team', '"Platform Team"'], relations: { owning_team: ['.owner.login'] } })],
      }),
      findings: [
        { location: 'config.resources[0].port.entity.mappings.team[0]', resource: I, verdict: 'review' },
        { location: 'config.resources[0].port.entity.mappings.team[1]', resource: I, verdict: 'breaks', rewrite: '"platform"' },
        { location: 'config.resources[0].port.entity.mappings.relations.owning_team', resource: I, verdict: 'breaks', rewrite: JSON.stringify({ team: ['.owner.login'] }) },
      ],
    },
  ],
});

ruleTester('webhook-mapping', {
  valid: [
    {
      name: 'a team list that is empty and relation lists to kept relations',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        webhooks: [{ identifier: 'pd', title: 'PagerDuty', mappings: [{ blueprint: 'repository', entity: { identifier: '.body.id', team: [], relations: { service: ['.body.service'] } } }] }],
      }),
    },
  ],
  invalid: [
    {
      name: 'a team list holding a search query',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        webhooks: [
          {
            identifier: 'pd',
            title: 'PagerDuty',
            mappings: [{ blueprint: 'service', entity: { identifier: '.body.id', team: [{ combinator: 'and', rules: [{ property: '$title', operator: '=', value: '.body.team' }] }] } }],
          },
        ],
      }),
      // By $title with a value from the source: it keeps working while the source holds titles (checked, verified).
      findings: [{ location: 'mappings[0].entity.team[0].rules[0]', resource: { type: 'webhook', identifier: 'pd' }, verdict: 'unaffected', reason: 'keeps working while the source holds titles' }],
    },
  ],
});

ruleTester('team-permission-identifiers', {
  valid: [
    {
      name: 'empty team lists inside a list of permission objects',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, pagePermissions: { home: { grants: [{ teams: [] }, 'x'] } }, pages: [{ identifier: 'home', title: 'Home' }] }),
    },
  ],
  invalid: [
    {
      // Before the migration the service matches team entries against titles: identifiers let nobody in until it runs.
      name: 'identifiers inside a list of permission objects',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, pagePermissions: { home: { grants: [{ teams: ['platform', 'payments'] }, 'x'] } }, pages: [{ identifier: 'home', title: 'Home' }] }),
      findings: [{ location: 'permissions.grants[0].teams', resource: { type: 'page', identifier: 'home' }, verdict: undefined, rewrite: undefined, reason: 'the members of "Platform Team", "Payments" gain the permission' }],
    },
    {
      name: 'teams lists inside a list of permission objects (an unknown shape) still count',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        pagePermissions: { home: { read: { roles: [], teams: ['payments'] }, grants: [{ teams: ['Platform Team'] }] } },
        pages: [{ identifier: 'home', title: 'Home' }],
      }),
      findings: [
        { location: 'permissions.grants[0].teams', resource: { type: 'page', identifier: 'home' }, rewrite: '["platform"]' },
        { location: 'permissions.read.teams', resource: { type: 'page', identifier: 'home' }, verdict: undefined, reason: 'lets nobody in' },
      ],
    },
  ],
});
