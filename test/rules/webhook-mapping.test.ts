import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const webhook = (identifier: string, mappings: JsonObject[]): JsonObject => ({ identifier, title: identifier, description: 'Sets the .team of alerts', mappings });
const W = (identifier: string) => ({ type: 'webhook' as const, identifier });
const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];

ruleTester('webhook-mapping', {
  valid: [
    {
      name: 'mappings that set no team and write no removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        webhooks: [
          webhook('jira', [
            { blueprint: 'service', filter: '.body.team == "Payments"', entity: { identifier: '.body.key', title: '.body.team', properties: { team: '.body.team' }, relations: { owning_team: '.body.x' } } },
            { blueprint: 'repository', entity: { identifier: '.body.key', relations: { service: '.body.service' } } },
          ]),
        ],
      }),
    },
    { name: 'a webhook without mappings', org: org({ webhooks: [{ identifier: 'w', title: 'w' }] }) },
  ],
  invalid: [
    {
      name: 'team set from a title, from the payload, and a removed relation written',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        webhooks: [
          webhook('opsgenie', [
            { blueprint: 'service', entity: { identifier: '.body.id', team: 'if .body.p == "P1" then "Payments" else "platform" end' } },
            { blueprint: 'service', entity: { identifier: '.body.id', team: '.body.owner' } },
            { blueprint: 'repository', entity: { identifier: '.body.repo', relations: { owning_team: '.body.teams' } } },
          ]),
        ],
      }),
      findings: [
        { location: 'mappings[0].entity.team', resource: W('opsgenie'), verdict: 'breaks', rewrite: 'if .body.p == "P1" then "payments" else "platform" end' },
        { location: 'mappings[1].entity.team', resource: W('opsgenie'), verdict: 'review', rewrite: undefined },
        { location: 'mappings[2].entity.relations.owning_team', resource: W('opsgenie'), verdict: 'breaks', rewrite: JSON.stringify({ team: '.body.teams' }) },
      ],
    },
  ],
});
