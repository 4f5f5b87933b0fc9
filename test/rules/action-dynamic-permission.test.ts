import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const ACTIONS = [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service' } }];
const withPolicy = (stage: 'execute' | 'approve', policy: JsonObject): JsonObject => ({
  [stage]: { roles: ['Admin'], users: [], teams: [], policy },
});
const DEPLOY = { type: 'action' as const, identifier: 'deploy' };
const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];

ruleTester('action-dynamic-permission', {
  valid: [
    {
      name: 'query rules on other properties, emptiness and {{getUserTeams()}}',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: ACTIONS,
        actionPermissions: {
          deploy: withPolicy('execute', {
            queries: {
              mine: {
                combinator: 'and',
                rules: [
                  { property: '$blueprint', operator: '=', value: 'service' },
                  { property: '$team', operator: 'containsAny', value: '{{getUserTeams()}}' },
                  { property: '$team', operator: 'isNotEmpty' },
                  { property: 'team_name', operator: '=', value: 'Payments' },
                ],
              },
            },
            conditions: ['.results.mine.entities | length > 0'],
          }),
        },
      }),
    },
    { name: 'no policy at all', org: org({ teams: TEAMS, blueprints: BLUEPRINTS, actions: ACTIONS, actionPermissions: { deploy: { execute: { roles: [], users: [], teams: ['Payments'] } } } }) },
  ],
  invalid: [
    {
      // Issue 14: `.user.teams` is read like `.user.team`; before, neither condition was found.
      name: 'conditions over .user.teams: a title comparison breaks, a count needs review (read without jq)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: ACTIONS,
        actionPermissions: { deploy: withPolicy('execute', { queries: {}, conditions: ['.user.teams | index("Payments") != null', '.user.teams | length > 0'] }) },
      }),
      findings: [
        { location: 'permissions.execute.policy.conditions[0]', resource: DEPLOY, verdict: 'breaks', rewrite: '.user.teams | index("payments") != null' },
        { location: 'permissions.execute.policy.conditions[1]', resource: DEPLOY, verdict: 'review' },
      ],
    },
    {
      name: '$team rules by title, in nested rule groups, for execute and approve',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: ACTIONS,
        actionPermissions: {
          deploy: {
            ...withPolicy('execute', {
              queries: {
                owned: {
                  combinator: 'and',
                  rules: [
                    { property: '$blueprint', operator: '=', value: 'service' },
                    { combinator: 'or', rules: [{ property: '$team', operator: 'containsAny', value: ['Payments', 'platform'] }] },
                  ],
                },
              },
            }),
            ...withPolicy('approve', { queries: { q: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: 'Data Science' }] } } }),
          },
        },
      }),
      findings: [
        {
          location: 'permissions.execute.policy.queries.owned.rules[1].rules[0]',
          resource: DEPLOY,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments', 'platform'] }),
          reason: 'Payments',
        },
        { location: 'permissions.approve.policy.queries.q.rules[0]', resource: DEPLOY, verdict: 'breaks', rewrite: undefined, suggestion: 'not known yet' },
      ],
    },
    {
      name: 'a $team rule naming no team of the org matches nothing before and after: a review, a condition that never worked (issue 39; verified before)',
      org: org({
        teams: TEAMS,
        actions: ACTIONS,
        actionPermissions: { deploy: withPolicy('execute', { queries: { q: { combinator: 'and', rules: [{ property: '$team', operator: 'in', value: ['Old Team'] }] } } }) },
      }),
      findings: [{ location: 'permissions.execute.policy.queries.q.rules[0]', resource: DEPLOY, verdict: 'review', rewrite: undefined }],
    },
    {
      name: 'a $team rule on identifiers before the migration starts matching once teams are identifiers (issue 21)',
      org: org({
        teams: TEAMS,
        actions: ACTIONS,
        actionPermissions: { deploy: withPolicy('execute', { queries: { q: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: ['payments', 'platform'] }] } } }) },
      }),
      findings: [{ location: 'permissions.execute.policy.queries.q.rules[0]', resource: DEPLOY, verdict: 'breaks', reason: 'written for team identifiers', rewrite: undefined }],
    },
    {
      name: 'a query rule on a removed team relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: ACTIONS,
        actionPermissions: { deploy: withPolicy('execute', { queries: { q: { combinator: 'and', rules: [{ property: 'owning_team', operator: 'containsAny', value: ['payments'] }] } } }) },
      }),
      findings: [
        {
          location: 'permissions.execute.policy.queries.q.rules[0]',
          resource: DEPLOY,
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['payments'] }),
        },
      ],
    },
    {
      name: 'conditions reading team values',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: ACTIONS,
        actionPermissions: {
          deploy: withPolicy('execute', {
            queries: {},
            conditions: [
              '.results.oncall.entities | map(.team) | flatten | index("Payments") != null',
              '.user.team | length > 0',
              '.results.repos.entities[0].relations.owning_team | length > 0',
              '.results.q.entities | length > 0',
            ],
          }),
        },
      }),
      findings: [
        { location: 'permissions.execute.policy.conditions[0]', resource: DEPLOY, verdict: 'breaks', rewrite: '.results.oncall.entities | map(.team) | flatten | index("payments") != null' },
        { location: 'permissions.execute.policy.conditions[1]', resource: DEPLOY, verdict: 'review', rewrite: undefined },
        { location: 'permissions.execute.policy.conditions[2]', resource: DEPLOY, verdict: 'breaks', rewrite: '.results.repos.entities[0].team | length > 0' },
      ],
    },
  ],
});
