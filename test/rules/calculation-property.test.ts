import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const calc = (calculations: Record<string, string>): JsonObject => ({
  calculationProperties: Object.fromEntries(Object.entries(calculations).map(([id, calculation]) => [id, { title: id, type: 'string', calculation }])),
});
const service = { type: 'blueprint' as const, identifier: 'service' };
const loc = (property: string) => `calculationProperties.${property}.calculation`;

ruleTester('calculation-property', {
  valid: [
    {
      name: 'look-alikes of .team: .teams, .teamsize, .properties.team, a string mentioning .team',
      org: org({
        teams: TEAMS,
        blueprints: [
          blueprint('service', calc({
            a: '.teams | length',
            b: '.teamsize * 2',
            c: '.properties.team',
            d: '"text with .team in it"',
            e: '.relations.team',
            f: '.title + " (Payments)"',
          })),
        ],
      }),
    },
    {
      name: 'a relation that the migration keeps (no inheritance over it)',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', { relations: { owners: { target: '_team', many: true } }, ...calc({ owners: '.relations.owners' }) })] }),
    },
    {
      name: 'a removed relation of another blueprint',
      org: org({ blueprints: [betaBlueprint('repository', 'owning_team'), blueprint('service', calc({ o: '.relations.owning_team' }))] }),
    },
    {
      name: 'a mirror property that copies another property, not $team',
      org: org({
        teams: TEAMS,
        blueprints: [
          blueprint('domain'),
          blueprint('service', { relations: { domain: { target: 'domain', many: false } }, mirrorProperties: { domain_tier: { path: 'domain.tier' } }, ...calc({ t: '.properties.domain_tier | index("Payments") != null' }) }),
        ],
      }),
    },
    { name: 'a calculation that is not a string', org: org({ blueprints: [blueprint('service', { calculationProperties: { a: { title: 'a', type: 'string' } } })] }) },
  ],
  invalid: [
    {
      name: 'reads a mirror property that copies $team: a team read like .team',
      org: org({
        teams: TEAMS,
        blueprints: [
          blueprint('domain'),
          blueprint('service', {
            relations: { domain: { target: 'domain', many: false } },
            mirrorProperties: { domain_team: { path: 'domain.$team' } },
            ...calc({ t: '.properties.domain_team | index("Payments") != null' }),
          }),
        ],
      }),
      findings: [{ location: loc('t'), resource: service, verdict: 'breaks', rewrite: '.properties.domain_team | index("payments") != null' }],
    },
    {
      name: 'reads .team',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', calc({ owner_list: '.team | join(", ")' }))] }),
      findings: [{ location: loc('owner_list'), resource: service, verdict: 'review', rewrite: undefined, evidence: '.team | join(", ")', reason: '.team' }],
    },
    {
      name: 'compares .team with a title: breaks, rewritten to the identifier',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', calc({ platform_owned: '.team | index("Platform Team") != null' }))] }),
      findings: [{ location: loc('platform_owned'), resource: service, verdict: 'breaks', rewrite: '.team | index("platform") != null', reason: 'Platform Team' }],
    },
    {
      name: 'compares .team with an identifier: unaffected',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', calc({ p: '.team | index("payments") != null' }))] }),
      findings: [{ location: loc('p'), resource: service, verdict: 'unaffected', rewrite: undefined }],
    },
    {
      name: 'a title with no known identifier: breaks, no rewrite',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', calc({ ds: '.team | index("Data Science") != null' }))] }),
      findings: [{ location: loc('ds'), resource: service, verdict: 'breaks', rewrite: undefined, suggestion: 'Data Science' }],
    },
    {
      name: 'reads a removed team relation: rewritten to .team',
      org: org({ teams: TEAMS, blueprints: [betaBlueprint('repository', 'owning_team', calc({ owner_ids: '.relations.owning_team | join(",")', n: '.relations.owning_team | length' }))] }),
      findings: [
        { location: loc('owner_ids'), resource: { type: 'blueprint', identifier: 'repository' }, verdict: 'breaks', rewrite: '.team | join(",")', reason: 'owning_team' },
        { location: loc('n'), resource: { type: 'blueprint', identifier: 'repository' }, verdict: 'breaks', rewrite: '.team | length' },
      ],
    },
    {
      name: 'only the affected calculations of a blueprint, property ids with dots bracketed',
      org: org({ teams: TEAMS, blueprints: [blueprint('service', calc({ fine: '.title', 'odd.id': '.team[0]' }))] }),
      findings: [{ location: 'calculationProperties["odd.id"].calculation', resource: service, verdict: 'review' }],
    },
  ],
});
