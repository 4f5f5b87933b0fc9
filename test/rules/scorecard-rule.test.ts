import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

/** A scorecard as `GET /v1/scorecards` returns it: with levels and timestamps the rule never reads. */
const scorecard = (blueprintId: string, identifier: string, rules: JsonObject[], extra: JsonObject = {}): JsonObject => ({
  identifier,
  title: identifier,
  blueprint: blueprintId,
  levels: [
    { color: 'paleBlue', title: 'Basic' },
    { color: 'bronze', title: 'Bronze' },
    { color: 'gold', title: 'Gold' },
  ],
  rules,
  createdAt: '2024-06-01T10:00:00.000Z',
  updatedAt: '2024-06-01T10:00:00.000Z',
  ...extra,
});
const rule = (identifier: string, conditions: JsonObject[], combinator = 'and'): JsonObject => ({
  identifier,
  title: identifier,
  level: 'Bronze',
  query: { combinator, conditions },
});
const S = (identifier: string) => ({ type: 'scorecard' as const, identifier });
const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];

ruleTester('scorecard-rule', {
  valid: [
    {
      name: 'isNotEmpty / isEmpty on $team, identifiers, {{getUserTeams()}}, other properties that hold a title-like value',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        scorecards: [
          scorecard(
            'service',
            'ownership',
            [
              rule('has-team', [{ operator: 'isNotEmpty', property: '$team' }]),
              rule('no-orphans', [{ operator: 'isEmpty', property: '$team' }]),
              rule('mine', [{ property: '$team', operator: 'containsAny', value: ['{{getUserTeams()}}'] }]),
              rule('tier', [{ property: 'owner_name', operator: '=', value: 'Payments' }]),
            ],
            { filter: { combinator: 'and', conditions: [{ property: '$team', operator: 'isNotEmpty' }] } },
          ),
        ],
      }),
    },
    {
      name: 'no scorecards, null scorecards, and a scorecard with no rules or a malformed query',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        scorecards: [scorecard('service', 'empty', []), scorecard('service', 'odd', [{ identifier: 'r', query: 'not a query' }, 'not a rule' as unknown as JsonObject])],
      }),
    },
    { name: 'scorecards: null (absent, as the API may send it)', org: org({ teams: TEAMS, blueprints: BLUEPRINTS, scorecards: null }) },
    {
      name: 'a relation named like a removed one, on a blueprint that keeps it',
      org: org({
        teams: TEAMS,
        blueprints: [...BLUEPRINTS, blueprint('service2', { relations: { owning_team: { target: '_team', many: true } } })],
        scorecards: [scorecard('service2', 'owned', [rule('has-owner', [{ property: 'owning_team', operator: 'isNotEmpty' }])])],
      }),
    },
  ],
  invalid: [
    {
      name: 'rule conditions and the filter comparing $team with titles (known, identifier unknown, nested group)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        scorecards: [
          scorecard(
            'service',
            'ownership',
            [
              rule('has-team', [{ operator: 'isNotEmpty', property: '$team' }]),
              rule('core-team', [
                { property: 'tier', operator: '=', value: 'critical' },
                { property: '$team', operator: 'containsAny', value: ['Platform Team', 'payments'] },
              ]),
              rule('data', [{ combinator: 'or', conditions: [{ property: '$team', operator: '=', value: 'Data Science' }] }]),
            ],
            { filter: { combinator: 'and', conditions: [{ property: '$team', operator: '!=', value: 'Payments' }] } },
          ),
        ],
      }),
      findings: [
        {
          location: 'rules[1].query.conditions[1]',
          resource: S('service/ownership'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['platform', 'payments'] }),
          evidence: JSON.stringify({ property: '$team', operator: 'containsAny', value: ['Platform Team', 'payments'] }),
          reason: ['scorecard rule "core-team"', '"Platform Team"'],
        },
        {
          location: 'rules[2].query.conditions[0].conditions[0]',
          resource: S('service/ownership'),
          verdict: 'breaks',
          rewrite: undefined,
          suggestion: 'identifier of "Data Science" is not known yet',
        },
        {
          location: 'filter.conditions[0]',
          resource: S('service/ownership'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: '!=', value: 'payments' }),
          reason: 'The scorecard filter',
        },
      ],
    },
    {
      name: 'a value that names no team of the org matches nothing before and after: a review, a condition that never worked (issue 39; verified before)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        scorecards: [scorecard('service', 'ghosts', [rule('ghost', [{ property: '$team', operator: '=', value: 'Ghost Team' }])])],
      }),
      findings: [{ location: 'rules[0].query.conditions[0]', resource: S('service/ghosts'), verdict: 'review', rewrite: undefined, reason: '"Ghost Team"' }],
    },
    {
      name: 'a condition on a removed team relation, also when the scorecard has no blueprint (every removed relation counts)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        scorecards: [
          scorecard('repository', 'owned', [rule('has-owner', [{ property: 'owning_team', operator: 'isNotEmpty' }])]),
          { identifier: 'loose', rules: [rule('owner', [{ property: 'owning_team', operator: 'in', value: ['payments'] }])] },
        ],
      }),
      findings: [
        {
          location: 'rules[0].query.conditions[0]',
          resource: S('repository/owned'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ property: '$team', operator: 'isNotEmpty' }),
          reason: 'relation "owning_team"',
        },
        { location: 'rules[0].query.conditions[0]', resource: S('(no blueprint)/loose'), verdict: 'breaks' },
      ],
    },
    {
      name: 'a condition on a mirror property that copies $team compares team values too',
      org: org({
        teams: TEAMS,
        blueprints: [
          ...BLUEPRINTS,
          blueprint('incident', {
            relations: { service: { target: 'service', many: false } },
            mirrorProperties: { service_owners: { title: 'Service owners', path: 'service.$team' }, service_tier: { title: 'Service tier', path: 'service.tier' } },
          }),
        ],
        scorecards: [
          scorecard('incident', 'routing', [
            rule('core', [{ property: 'service_owners', operator: 'containsAny', value: ['Payments', 'sre'] }]),
            rule('by-id', [{ property: 'service_owners', operator: 'containsAny', value: ['payments'] }]),
            rule('tier-look-alike', [{ property: 'service_tier', operator: '=', value: 'Payments' }]),
            rule('has-owner', [{ property: 'service_owners', operator: 'isNotEmpty' }]),
          ]),
        ],
      }),
      findings: [
        {
          location: 'rules[0].query.conditions[0]',
          resource: S('incident/routing'),
          verdict: 'breaks',
          evidence: JSON.stringify({ property: 'service_owners', operator: 'containsAny', value: ['Payments', 'sre'] }),
          rewrite: JSON.stringify({ property: 'service_owners', operator: 'containsAny', value: ['payments', 'sre'] }),
          reason: ['mirror property "service_owners" (a copy of $team)', '"Payments"'],
          suggestion: JSON.stringify({ property: 'service_owners', operator: 'containsAny', value: ['payments', 'sre'] }),
        },
        // Issue 21: an identifier before the migration starts matching once teams are identifiers.
        { location: 'rules[1].query.conditions[0]', resource: S('incident/routing'), verdict: 'breaks', reason: 'written for team identifiers' },
      ],
    },
    {
      name: 'scorecards of the same identifier on two blueprints are two resources',
      org: org({
        teams: TEAMS,
        blueprints: [...BLUEPRINTS, blueprint('system')],
        scorecards: ['service', 'system'].map((b) => scorecard(b, 'ownership', [rule('platform', [{ property: '$team', operator: '=', value: 'Platform Team' }])])),
      }),
      findings: [
        { location: 'rules[0].query.conditions[0]', resource: S('service/ownership'), verdict: 'breaks' },
        { location: 'rules[0].query.conditions[0]', resource: S('system/ownership'), verdict: 'breaks' },
      ],
    },
  ],
});
