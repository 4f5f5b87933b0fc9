import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

/** A self-service action on `service` with the given inputs (and form-level extras). */
const action = (identifier: string, properties: JsonObject, form: JsonObject = {}, blueprintIdentifier = 'service'): JsonObject => ({
  identifier,
  title: identifier,
  description: 'Deploys the service; only the .team owners may use it',
  trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier, userInputs: { properties, required: [], ...form } },
  invocationMethod: { type: 'WEBHOOK', url: 'https://example.com/hook' },
});
const ACTION = { type: 'action' as const, identifier: 'deploy' };
const input = (name: string, ...rest: string[]) => ['trigger.userInputs.properties', name, ...rest].join('.');

ruleTester('action-user-input', {
  valid: [
    {
      name: 'prose (title, description, placeholders) mentioning .team is never flagged',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        actions: [action('deploy', { reason: { type: 'string', title: 'Why .team?', description: 'Use .user.team or "Payments"', default: '.team' } })],
      }),
    },
    {
      // `.user.teams` was a look-alike here until issue 14: it is the user's teams, a team read.
      name: 'jqQuery that reads no team values, and look-alikes (.teamsize, a relation called teams)',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        actions: [
          action('deploy', {
            env: { type: 'string', visible: { jqQuery: '.form.kind == "prod"' } },
            size: { type: 'number', default: { jqQuery: '.entity.properties.teamsize' } },
            list: { type: 'array', visible: { jqQuery: '.entity.relations.teams | length > 0' } },
          }),
        ],
      }),
    },
    {
      name: 'dataset rules on $team with emptiness tests and {{getUserTeams()}} (identifiers before the migration: test/judge/dataset.test.ts)',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        actions: [
          action('deploy', {
            target: {
              type: 'string',
              format: 'entity',
              blueprint: 'service',
              dataset: {
                combinator: 'and',
                rules: [
                  { property: '$team', operator: 'isNotEmpty' },
                  { property: '$team', operator: 'containsAny', value: '{{getUserTeams()}}' },
                  { property: 'language', operator: '=', value: 'Payments' },
                ],
              },
            },
          }),
        ],
      }),
    },
    {
      name: 'automations have no user inputs to check',
      org: org({
        teams: TEAMS,
        actions: [{ identifier: 'auto', title: 'Auto', trigger: { type: 'automation', userInputs: { properties: { x: { type: 'string', visible: { jqQuery: '.user.team' } } } } } }],
      }),
    },
    {
      name: 'a dataset on a blueprint that keeps its relation, in an action on a beta blueprint',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service', { relations: { owning_team: { target: '_team', many: true } } }), betaBlueprint('repository', 'owning_team')],
        actions: [
          action(
            'deploy',
            { svc: { type: 'string', format: 'entity', blueprint: 'service', dataset: { combinator: 'and', rules: [{ property: 'owning_team', operator: 'containsAny', value: ['payments'] }] } } },
            {},
            'repository',
          ),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'visible, default and required jqQuery reading team values',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        actions: [
          action(
            'deploy',
            {
              rollback: { type: 'string', visible: { jqQuery: '.user.team | contains(["Payments"])' } },
              owner: { type: 'string', default: { jqQuery: '.entity.team[0]' } },
              ticket: { type: 'string', required: { jqQuery: '.user.team | index("payments") == null' } },
            },
            { required: { jqQuery: 'if (.user.team | length) > 1 then ["rollback"] else [] end' } },
          ),
        ],
      }),
      findings: [
        { location: input('rollback', 'visible.jqQuery'), resource: ACTION, verdict: 'breaks', rewrite: '.user.team | contains(["payments"])', evidence: '.user.team | contains(["Payments"])' },
        { location: input('owner', 'default.jqQuery'), resource: ACTION, verdict: 'review', rewrite: undefined },
        { location: input('ticket', 'required.jqQuery'), resource: ACTION, verdict: 'unaffected' },
        { location: 'trigger.userInputs.required.jqQuery', resource: ACTION, verdict: 'review' },
      ],
    },
    {
      name: 'dataset rules filtering $team by title, nested groups and jqQuery values',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        actions: [
          action('deploy', {
            target: {
              type: 'string',
              format: 'entity',
              blueprint: 'service',
              dataset: {
                combinator: 'and',
                rules: [
                  { property: '$team', operator: 'containsAny', value: ['Payments'] },
                  { combinator: 'or', rules: [{ property: '$team', operator: '=', value: 'Platform Team' }] },
                  { property: '$team', operator: 'containsAny', value: { jqQuery: '.user.team' } },
                ],
              },
            },
          }),
        ],
      }),
      findings: [
        {
          location: input('target', 'dataset.rules[0]'),
          resource: ACTION,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments'] }),
        },
        {
          location: input('target', 'dataset.rules[1].rules[0]'),
          resource: ACTION,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: '=', value: 'platform' }),
        },
        { location: input('target', 'dataset.rules[2].value.jqQuery'), resource: ACTION, evidence: '.user.team' },
      ],
    },
    {
      name: 'a removed relation of the action’s blueprint in a jqQuery and in a dataset rule',
      org: org({
        teams: TEAMS,
        blueprints: [betaBlueprint('repository', 'owning_team')],
        actions: [
          action(
            'deploy',
            {
              owner: { type: 'string', default: { jqQuery: '.entity.relations.owning_team[0]' } },
              repo: { type: 'string', format: 'entity', blueprint: 'repository', dataset: { combinator: 'and', rules: [{ property: 'owning_team', operator: 'containsAny', value: ['payments'] }] } },
            },
            {},
            'repository',
          ),
        ],
      }),
      findings: [
        { location: input('owner', 'default.jqQuery'), resource: ACTION, verdict: 'breaks', rewrite: '.entity.team[0]' },
        {
          location: input('repo', 'dataset.rules[0]'),
          resource: ACTION,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments'] }),
        },
      ],
    },
    {
      name: 'older actions keep userInputs at the top',
      org: org({
        teams: TEAMS,
        actions: [{ identifier: 'old', title: 'Old', trigger: 'DAY-2', userInputs: { properties: { x: { type: 'string', visible: { jqQuery: '.user.team | length > 0' } } } } }],
      }),
      findings: [{ location: 'userInputs.properties.x.visible.jqQuery', resource: { type: 'action', identifier: 'old' }, verdict: 'review' }],
    },
    {
      name: 'dataset rules whose value is a jqQuery: $team against titles, a removed relation',
      org: org({
        teams: TEAMS,
        blueprints: [betaBlueprint('repository', 'owning_team')],
        actions: [
          action(
            'deploy',
            {
              repo: {
                type: 'string',
                format: 'entity',
                blueprint: 'repository',
                dataset: {
                  combinator: 'and',
                  rules: [
                    { property: '$team', operator: 'containsAny', value: { jqQuery: '["Payments"]' } },
                    { property: 'owning_team', operator: 'containsAny', value: { jqQuery: '[.user.email]' } },
                    { property: 'language', operator: '=', value: { jqQuery: '.entity.properties.language' } },
                  ],
                },
              },
            },
            {},
            'repository',
          ),
        ],
      }),
      findings: [
        { location: input('repo', 'dataset.rules[0].value.jqQuery'), resource: ACTION, verdict: 'breaks', rewrite: '["payments"]' },
        {
          location: input('repo', 'dataset.rules[1]'),
          resource: ACTION,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: { jqQuery: '[.user.email]' } }),
        },
      ],
    },
    {
      name: 'a dataset filters entities of the input’s blueprint, whose relation is removed',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service'), betaBlueprint('repository', 'owning_team')],
        actions: [
          action('deploy', {
            repo: { type: 'string', format: 'entity', blueprint: 'repository', dataset: { combinator: 'and', rules: [{ property: 'owning_team', operator: 'containsAny', value: ['payments'] }] } },
          }),
        ],
      }),
      findings: [
        {
          location: input('repo', 'dataset.rules[0]'),
          resource: ACTION,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments'] }),
        },
      ],
    },
  ],
});
