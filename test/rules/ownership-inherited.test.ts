import { betaBlueprint, blueprint, org, ruleTester } from '../support/rule-tester.js';

const inherited = (path: string) => JSON.stringify({ ownership: { type: 'Inherited', path } });
const rel = (target: string, many = false) => ({ target, many, required: false });

ruleTester('ownership-inherited', {
  valid: [
    { name: 'no teamInheritance anywhere', org: org({ blueprints: [blueprint('service'), blueprint('deployment', { relations: { service: rel('service') } })] }) },
    { name: 'inheritance over a direct _team relation (team-relation-removed covers it)', org: org({ blueprints: [betaBlueprint('repository')] }) },
    { name: 'a teamInheritance without a string path', org: org({ blueprints: [blueprint('service', { teamInheritance: {} })] }) },
  ],
  invalid: [
    {
      name: 'a one-hop path to an owned blueprint, no note',
      org: org({ blueprints: [blueprint('service'), blueprint('deployment', { relations: { service: rel('service') }, teamInheritance: { path: 'service' } })] }),
      findings: [
        {
          location: 'teamInheritance.path',
          resource: { type: 'blueprint', identifier: 'deployment' },
          rewrite: inherited('service'),
          evidence: JSON.stringify({ teamInheritance: { path: 'service' } }),
          suggestion: 'Inherited',
          note: undefined,
        },
      ],
    },
    {
      name: 'a two-hop path resolved hop by hop',
      org: org({
        blueprints: [
          blueprint('domain'),
          blueprint('service', { relations: { domain: rel('domain') } }),
          blueprint('deployment', { relations: { service: rel('service') }, teamInheritance: { path: 'service.domain' } }),
        ],
      }),
      findings: [{ location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'deployment' }, rewrite: inherited('service.domain'), note: undefined }],
    },
    {
      name: 'a dangling hop: the relation does not exist',
      org: org({ blueprints: [blueprint('service'), blueprint('deployment', { relations: { service: rel('service') }, teamInheritance: { path: 'service.domain' } })] }),
      findings: [{ location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'deployment' }, rewrite: inherited('service.domain'), note: 'has no relation "domain"' }],
    },
    {
      name: 'a hop to an unknown blueprint',
      org: org({ blueprints: [blueprint('deployment', { relations: { service: rel('ghost') }, teamInheritance: { path: 'service' } })] }),
      findings: [{ location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'deployment' }, note: 'unknown blueprint "ghost"' }],
    },
    {
      name: 'a cycle',
      org: org({
        blueprints: [
          blueprint('a', { relations: { b: rel('b') }, teamInheritance: { path: 'b.a.b' } }),
          blueprint('b', { relations: { a: rel('a') } }),
        ],
      }),
      findings: [{ location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'a' }, note: 'cycle' }],
    },
    {
      name: 'a many hop',
      org: org({ blueprints: [blueprint('service'), blueprint('deployment', { relations: { services: rel('service', true) }, teamInheritance: { path: 'services' } })] }),
      findings: [{ location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'deployment' }, rewrite: inherited('services'), note: 'many relation' }],
    },
    {
      name: 'a target that itself inherits, and every inheriting blueprint reported',
      org: org({
        blueprints: [
          blueprint('domain'),
          blueprint('service', { relations: { domain: rel('domain') }, teamInheritance: { path: 'domain' } }),
          blueprint('deployment', { relations: { service: rel('service') }, teamInheritance: { path: 'service' } }),
        ],
      }),
      findings: [
        { location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'service' }, note: undefined },
        { location: 'teamInheritance.path', resource: { type: 'blueprint', identifier: 'deployment' }, note: 'inherits its own teams' },
      ],
    },
    {
      name: 'a path that reaches _team after several hops',
      org: org({
        blueprints: [
          blueprint('service', { relations: { owners: rel('_team', true) } }),
          blueprint('deployment', { relations: { service: rel('service') }, teamInheritance: { path: 'service.owners' } }),
        ],
      }),
      findings: [
        {
          location: 'teamInheritance.path',
          resource: { type: 'blueprint', identifier: 'deployment' },
          note: 'Inherit over "service" instead, once its target has Direct ownership: {"ownership":{"type":"Inherited","path":"service"}}',
        },
      ],
    },
  ],
});
