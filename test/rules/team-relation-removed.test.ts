import { betaBlueprint, blueprint, org, ruleTester } from '../support/rule-tester.js';

const DIRECT = JSON.stringify({ ownership: { type: 'Direct' } });

ruleTester('team-relation-removed', {
  valid: [
    { name: 'a _team relation without teamInheritance (relation-ownership covers it)', org: org({ blueprints: [blueprint('repository', { relations: { owning_team: { target: '_team', many: true } } })] }) },
    {
      name: 'inheritance over a relation to an ordinary blueprint',
      org: org({ blueprints: [blueprint('service'), blueprint('deployment', { relations: { service: { target: 'service', many: false } }, teamInheritance: { path: 'service' } })] }),
    },
    {
      name: 'a _team relation while inheritance goes over another relation',
      org: org({
        blueprints: [
          blueprint('service'),
          blueprint('deployment', { relations: { service: { target: 'service' }, helpers: { target: '_team', many: true } }, teamInheritance: { path: 'service' } }),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'inheritance over a direct _team relation',
      org: org({ blueprints: [betaBlueprint('repository', 'owning_team'), betaBlueprint('service', 'teams')] }),
      findings: [
        { location: 'relations.owning_team', resource: { type: 'blueprint', identifier: 'repository' }, rewrite: DIRECT, reason: 'owning_team', suggestion: '.team' },
        { location: 'relations.teams', resource: { type: 'blueprint', identifier: 'service' }, rewrite: DIRECT },
      ],
    },
  ],
});
