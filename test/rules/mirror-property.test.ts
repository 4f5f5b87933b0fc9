import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, catalogOf, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const B = (identifier: string) => ({ type: 'blueprint' as const, identifier });
const mirrors = (entries: Record<string, string>): JsonObject => ({
  mirrorProperties: Object.fromEntries(Object.entries(entries).map(([id, path]) => [id, { title: id, path }])),
});
/** deployment → service → system; repository is the beta shape (its owning_team relation is removed). */
const deployment = (extra: JsonObject) =>
  blueprint('deployment', {
    relations: { service: { target: 'service', many: false }, repository: { target: 'repository', many: false } },
    ...extra,
  });
const BLUEPRINTS = [blueprint('service', { relations: { system: { target: 'system', many: false } } }), blueprint('system'), betaBlueprint('repository', 'owning_team')];

ruleTester('mirror-property', {
  valid: [
    {
      name: 'mirrors of ordinary properties and meta properties, over relations the migration keeps',
      org: org({
        teams: TEAMS,
        blueprints: [
          ...BLUEPRINTS,
          deployment(mirrors({ service_title: 'service.$title', tier: 'service.tier', system_id: 'service.system.$identifier', team_name: 'service.team_name' })),
          blueprint('kept', { relations: { owning_team: { target: '_team', many: true } }, ...mirrors({ team_title: 'owning_team.$title' }) }),
        ],
      }),
    },
    {
      name: 'malformed mirrors (no path, a non-object) and an unknown relation are left alone',
      org: org({
        teams: TEAMS,
        blueprints: [...BLUEPRINTS, deployment({ mirrorProperties: { a: { title: 'a' }, b: 'service.$team', c: { path: 42 }, d: { path: 'nowhere.owning_team.$identifier' } } })],
      }),
    },
  ],
  invalid: [
    {
      name: 'a path ending at $team carries team values: review ($team.$identifier holds identifiers already: nothing)',
      org: org({
        teams: TEAMS,
        blueprints: [...BLUEPRINTS, deployment(mirrors({ service_team: 'service.$team', system_team: 'service.system.$team', team_id: 'service.$team.$identifier' }))],
      }),
      findings: [
        {
          location: 'mirrorProperties.service_team.path',
          resource: B('deployment'),
          verdict: 'review',
          rewrite: undefined,
          evidence: JSON.stringify({ title: 'service_team', path: 'service.$team' }),
          reason: ['"service_team"', 'team titles today and team identifiers after the migration'],
          suggestion: ['Keep the mirror', 'listed in their own categories'],
        },
        { location: 'mirrorProperties.system_team.path', resource: B('deployment'), verdict: 'review' },
      ],
    },
    {
      name: 'a path that reads another property of the teams through $team: review',
      org: org({ teams: TEAMS, blueprints: [...BLUEPRINTS, deployment(mirrors({ team_slack: 'service.$team.slack_channel' }))] }),
      findings: [
        {
          location: 'mirrorProperties.team_slack.path',
          resource: B('deployment'),
          verdict: 'review',
          reason: ['follows $team on to "slack_channel"', 'relation to _team entities'],
          suggestion: 'readers of "team_slack"',
        },
      ],
    },
    {
      name: 'a path over a removed team relation breaks; the relation becomes $team ($identifier behind it: $team alone)',
      org: org({
        teams: TEAMS,
        blueprints: [
          ...BLUEPRINTS.filter((b) => b.identifier !== 'repository'),
          betaBlueprint('repository', 'owning_team', mirrors({ owners: 'owning_team.$identifier', owner_names: 'owning_team.$title' })),
          deployment(mirrors({ repo_owners: 'repository.owning_team.$identifier' })),
        ],
      }),
      findings: [
        { location: 'mirrorProperties.owners.path', resource: B('repository'), verdict: 'breaks', rewrite: '$team', reason: 'relation "owning_team" of blueprint "repository"' },
        { location: 'mirrorProperties.owner_names.path', resource: B('repository'), verdict: 'breaks', rewrite: '$team.$title', suggestion: 'use path "$team.$title"' },
        { location: 'mirrorProperties.repo_owners.path', resource: B('deployment'), verdict: 'breaks', rewrite: 'repository.$team' },
      ],
    },
    {
      name: 'run again after the migration: a $team mirror already carries identifiers (unaffected)',
      org: org({
        teams: TEAMS,
        blueprints: [
          blueprint('service', { ownership: { type: 'Direct' } }),
          blueprint('deployment', { relations: { service: { target: 'service', many: false } }, ownership: { type: 'Inherited', path: 'service' }, ...mirrors({ service_team: 'service.$team' }) }),
        ],
        entities: { service: [{ identifier: 'checkout', team: ['platform'] }] },
      }),
      findings: [
        {
          location: 'mirrorProperties.service_team.path',
          resource: B('deployment'),
          verdict: 'unaffected',
          reason: 'the org already holds team identifiers',
          suggestion: 'Nothing to change',
        },
      ],
    },
  ],
});

describe('catalog.teamMirrors', () => {
  it('lists, per blueprint, the mirrors whose values are team values, and nothing else', () => {
    const catalog = catalogOf(
      org({
        blueprints: [
          ...BLUEPRINTS.filter((b) => b.identifier !== 'repository'),
          betaBlueprint('repository', 'owning_team', mirrors({ owners: 'owning_team.$identifier' })),
          deployment(mirrors({ service_team: 'service.$team', team_id: 'service.$team.$identifier', team_slack: 'service.$team.slack', tier: 'service.tier' })),
        ],
      }),
    );
    expect([...catalog.teamMirrors.keys()]).toEqual(['deployment']);
    expect([...catalog.teamMirrors.get('deployment')!].sort()).toEqual(['service_team']);
  });
});
