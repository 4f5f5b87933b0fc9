import { blueprint, org, ruleTester } from '../support/rule-tester.js';

const DIRECT = JSON.stringify({ ownership: { type: 'Direct' } });

ruleTester('ownership-direct', {
  valid: [
    { name: 'entities without team values', org: org({ blueprints: [blueprint('service')], entities: { service: [{ identifier: 'a' }, { identifier: 'b', team: [] }, { identifier: 'c', team: '' }] } }) },
    { name: 'a blueprint with no entities', org: org({ blueprints: [blueprint('service')], entities: { service: [] } }) },
    { name: 'no entities fetched at all', org: org({ blueprints: [blueprint('service')] }) },
    {
      name: 'blueprint with teamInheritance (ownership-inherited covers it)',
      org: org({
        blueprints: [blueprint('service'), blueprint('deployment', { relations: { service: { target: 'service', many: false } }, teamInheritance: { path: 'service' } })],
        entities: { deployment: [{ identifier: 'd1', team: ['Payments'] }] },
      }),
    },
    {
      name: 'blueprint that already has ownership',
      org: org({ blueprints: [blueprint('service', { ownership: { type: 'Direct' } })], entities: { service: [{ identifier: 'a', team: ['Payments'] }] } }),
    },
    {
      name: 'the _user and _team system blueprints',
      org: org({
        blueprints: [blueprint('_user'), blueprint('_team')],
        entities: { _user: [{ identifier: 'u@x', team: ['Payments'] }], _team: [{ identifier: 'payments', title: 'Payments', team: 'Payments' }] },
      }),
    },
  ],
  invalid: [
    {
      name: 'entities with $team (array or string) and no inheritance',
      org: org({
        blueprints: [blueprint('service'), blueprint('domain'), blueprint('clean')],
        entities: {
          service: [{ identifier: 'checkout', team: ['Payments'] }, { identifier: 'untouched' }],
          domain: [{ identifier: 'billing', team: 'Payments' }],
          clean: [{ identifier: 'x', team: [] }],
        },
      }),
      findings: [
        { location: 'ownership', resource: { type: 'blueprint', identifier: 'service' }, rewrite: DIRECT, evidence: 'no teamInheritance; entities with $team: checkout: ["Payments"]', suggestion: 'Direct' },
        { location: 'ownership', resource: { type: 'blueprint', identifier: 'domain' }, rewrite: DIRECT, evidence: 'no teamInheritance; entities with $team: billing: "Payments"' },
      ],
    },
    {
      name: 'evidence samples at most three entities',
      org: org({
        blueprints: [blueprint('service')],
        entities: { service: ['a', 'b', 'c', 'd'].map((identifier) => ({ identifier, team: ['Payments'] })) },
      }),
      findings: [
        {
          location: 'ownership',
          resource: { type: 'blueprint', identifier: 'service' },
          evidence: 'no teamInheritance; entities with $team: a: ["Payments"]; b: ["Payments"]; c: ["Payments"]; …',
        },
      ],
    },
    {
      name: 'ownership: null is no ownership',
      org: org({ blueprints: [blueprint('service', { ownership: null })], entities: { service: [{ identifier: 'a', team: ['Payments'] }] } }),
      findings: [{ location: 'ownership', resource: { type: 'blueprint', identifier: 'service' }, rewrite: DIRECT }],
    },
  ],
});
