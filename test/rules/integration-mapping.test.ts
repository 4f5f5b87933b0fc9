import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const integration = (installationId: string, integrationType: string, mappings?: JsonObject | JsonObject[]): JsonObject => ({
  installationId,
  integrationType,
  title: installationId,
  ...(mappings === undefined ? {} : { config: { resources: [{ kind: 'thing', selector: { query: 'true' }, port: { entity: { mappings } } }] } }),
});
const I = (identifier: string) => ({ type: 'integration' as const, identifier });
const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];
const M = 'config.resources[0].port.entity.mappings';

ruleTester('integration-mapping', {
  valid: [
    {
      name: 'mappings that set no team and no removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('gh', 'github', { identifier: '.name', title: '.name', blueprint: '"repository"', properties: { teams: '.teams', url: '.html_url' }, relations: { service: '.name' } }),
          integration('pd', 'pagerduty', [{ identifier: '.id', title: '.team', blueprint: '"service"', properties: { team: '.team.name' }, relations: { owning_team: '.x' } }]),
        ],
      }),
    },
    {
      name: 'a kubernetes (non-git) integration without config, or with mappings that set no team',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('k8s', 'kubernetes'),
          // named like a git provider, but not one: it keeps no mapping in a repository
          integration('copilot', 'github-copilot'),
          integration('k8s-prod', 'kubernetes', [{ identifier: '.metadata.name', blueprint: '"service"', properties: { labels: '.metadata.labels.team' }, relations: { service: '.metadata.labels.app' } }]),
        ],
      }),
    },
    {
      name: 'a git integration whose mapping is kept in the service and sets no team',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, integrations: [integration('gl', 'gitlab', { identifier: '.path', blueprint: '"service"' })] }),
    },
  ],
  invalid: [
    {
      name: 'properties.$team sets the team meta property like team does (a title literal breaks, a payload read is a review)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('gh', 'github', { identifier: '.name', blueprint: '"service"', properties: { $team: '"Payments"', url: '.html_url' } }),
          integration('gl', 'gitlab', { identifier: '.id', blueprint: '"service"', properties: { $team: '[.teams[].id | tostring]' } }),
        ],
      }),
      findings: [
        { location: `${M}.properties.$team`, resource: I('gh'), verdict: 'breaks', rewrite: '"payments"', evidence: '"Payments"' },
        { location: `${M}.properties.$team`, resource: I('gl'), verdict: 'review' },
      ],
    },
    {
      name: 'team as a jq string, in a mappings object and in a mappings list',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('gh', 'github', { identifier: '.name', blueprint: '"service"', team: '"Payments"' }),
          integration('pd', 'pagerduty', [{ identifier: '.id', blueprint: '"service"' }, { identifier: '.id', blueprint: '"service"', team: '[.teams[].summary]' }]),
        ],
      }),
      findings: [
        { location: `${M}.team`, resource: I('gh'), verdict: 'breaks', rewrite: '"payments"', evidence: '"Payments"' },
        { location: `${M}[1].team`, resource: I('pd'), verdict: 'review', rewrite: undefined },
      ],
    },
    {
      name: 'team as a search query over _team',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('a', 'pagerduty', { identifier: '.id', blueprint: '"service"', team: { combinator: 'and', rules: [{ property: '$identifier', operator: '=', value: '.team.id' }] } }),
          integration('b', 'pagerduty', { identifier: '.id', blueprint: '"service"', team: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: 'Payments' }] } }),
        ],
      }),
      findings: [
        // By $identifier with a value from the source: the source must hold identifiers.
        { location: `${M}.team.rules[0]`, resource: I('a'), verdict: 'review', reason: 'must hold team identifiers' },
        { location: `${M}.team.rules[0]`, resource: I('b'), verdict: 'breaks', rewrite: JSON.stringify({ property: '$team', operator: '=', value: 'payments' }) },
      ],
    },
    {
      name: 'a write of a removed team relation (blueprint as a jq literal or plain)',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        integrations: [
          integration('gh', 'github', { identifier: '.name', blueprint: '"repository"', relations: { owning_team: '[.teams[].slug]', service: '.name' } }),
          integration('gl', 'gitlab', [{ identifier: '.name', blueprint: 'repository', relations: { owning_team: '.group' } }]),
        ],
      }),
      findings: [
        { location: `${M}.relations.owning_team`, resource: I('gh'), verdict: 'breaks', rewrite: JSON.stringify({ team: '[.teams[].slug]' }), evidence: '[.teams[].slug]' },
        { location: `${M}[0].relations.owning_team`, resource: I('gl'), verdict: 'breaks', rewrite: JSON.stringify({ team: '.group' }) },
      ],
    },
    {
      name: 'git-provider integrations without config (the mapping lives in port.yaml)',
      org: org({ blueprints: BLUEPRINTS, integrations: [integration('gl', 'gitlab'), integration('gh', 'GitHub'), integration('bb', 'bitbucket'), integration('ado', 'azure-devops'), integration('gho', 'github-ocean'), integration('k8s', 'kubernetes'), { installationId: 'gh-empty', integrationType: 'github', config: {} }, { installationId: 'gl-none', integrationType: 'gitlab', config: { resources: [] } }] }),
      findings: ['gl', 'gh', 'bb', 'ado', 'gho', 'gh-empty', 'gl-none'].map((id) => ({ location: 'config', resource: I(id), verdict: 'review' as const, reason: 'port.yaml' })),
    },
  ],
});
