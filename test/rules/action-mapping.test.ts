import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const selfService = (identifier: string, invocationMethod: JsonObject, blueprintIdentifier = 'service', extra: JsonObject = {}): JsonObject => ({
  identifier,
  title: identifier,
  description: 'Writes the .team of the entity',
  trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier, userInputs: { properties: {} } },
  invocationMethod,
  ...extra,
});
const automation = (identifier: string, expressions: string[], invocationMethod: JsonObject = { type: 'KAFKA' }): JsonObject => ({
  identifier,
  title: identifier,
  trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', expressions, combinator: 'and' } },
  invocationMethod,
});
const A = (identifier: string) => ({ type: 'action' as const, identifier });
const AUTO = (identifier: string) => ({ type: 'automation' as const, identifier });
const BLUEPRINTS = [blueprint('service'), betaBlueprint('repository', 'owning_team')];

ruleTester('action-mapping', {
  valid: [
    {
      name: 'an UPSERT_ENTITY mapping that touches no team value',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('create', {
            type: 'UPSERT_ENTITY',
            blueprintIdentifier: 'service',
            mapping: { identifier: '.inputs.name', title: '.inputs.name', properties: { size: '.inputs.teamsize', url: '"https://x/.team"' }, relations: { domain: '.inputs.domain' } },
          }),
        ],
      }),
    },
    {
      name: 'webhook payloads: plain strings and templates that read no team value',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('notify', {
            type: 'WEBHOOK',
            url: 'https://hooks.example/team/.team?x={{ .entity.identifier }}',
            headers: { 'X-Team': 'Payments' },
            // A body key named team carrying a user input called team is no team read (issue 11).
            body: { text: 'Ask your .team lead', teams: '{{ .entity.properties.teams }}', nested: ['{{ .inputs.teamsize }}'], team: '{{ .inputs.team }}', owner: { $team: '{{ .form.team }}' } },
          }),
        ],
      }),
    },
    {
      name: 'automation conditions that read no team value',
      org: org({ teams: TEAMS, blueprints: BLUEPRINTS, actions: [automation('auto', ['.diff.after.properties.severity == "SEV1"', '.diff.after.properties.team == "Payments"'])] }),
    },
    {
      name: 'a removed relation of another blueprint is not a removed relation here',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [selfService('create', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '.inputs.name', relations: { owning_team: '.inputs.x' } } })],
      }),
    },
  ],
  invalid: [
    {
      name: 'UPSERT_ENTITY mapping: team, properties and a removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService(
            'register',
            {
              type: 'UPSERT_ENTITY',
              blueprintIdentifier: 'repository',
              mapping: {
                identifier: '.inputs.name',
                team: 'if .inputs.critical then ["Payments"] else ["platform"] end',
                properties: { owner: '.entity.team[0]' },
                relations: { owning_team: '[.inputs.team.identifier]' },
              },
            },
            'repository',
          ),
        ],
      }),
      findings: [
        { location: 'invocationMethod.mapping.team', resource: A('register'), verdict: 'breaks', rewrite: 'if .inputs.critical then ["payments"] else ["platform"] end' },
        { location: 'invocationMethod.mapping.properties.owner', resource: A('register'), verdict: 'review' },
        {
          location: 'invocationMethod.mapping.relations.owning_team',
          resource: A('register'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ team: '[.inputs.team.identifier]' }),
          evidence: '[.inputs.team.identifier]',
          reason: 'owning_team',
        },
      ],
    },
    {
      name: 'a v2 mapping as the service writes it: {{ }} templates are jq, other strings are literal values',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('templated', {
            type: 'UPSERT_ENTITY',
            blueprintIdentifier: 'service',
            mapping: {
              identifier: '{{ .inputs.name }}',
              icon: 'Cluster',
              team: '{{ if .inputs.critical then ["Payments"] else .entity.team end }}',
              properties: { status: 'unowned', owner: 'Owner: {{ .entity.team[0] }}' },
            },
          }),
          selfService('literal_title', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: ['Payments', 'platform'] } }),
          selfService('literal_unknown', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: 'Billing' } }),
        ],
      }),
      findings: [
        {
          location: 'invocationMethod.mapping.team',
          resource: A('templated'),
          verdict: 'breaks',
          rewrite: '{{ if .inputs.critical then ["payments"] else .entity.team end }}',
          evidence: '{{ if .inputs.critical then ["Payments"] else .entity.team end }}',
        },
        { location: 'invocationMethod.mapping.properties.owner', resource: A('templated'), verdict: 'review', evidence: 'Owner: {{ .entity.team[0] }}' },
        { location: 'invocationMethod.mapping.team', resource: A('literal_title'), verdict: 'breaks', rewrite: '["payments","platform"]', evidence: '["Payments","platform"]' },
        { location: 'invocationMethod.mapping.team', resource: A('literal_unknown'), verdict: 'review', rewrite: undefined, evidence: 'Billing' },
      ],
    },
    {
      name: 'team names that look like jq, a list mixing a template and a name, a removed relation written from itself',
      org: org({
        teams: [...TEAMS, { name: 'Dev.Ops', identifier: 'devops' }],
        blueprints: BLUEPRINTS,
        actions: [
          selfService('dotted', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: 'Dev.Ops' } }),
          selfService('mixed', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: ['{{ .entity.team[] }}', 'Payments'] } }),
          selfService(
            'reassign',
            { type: 'UPSERT_ENTITY', blueprintIdentifier: 'repository', mapping: { identifier: '{{ .entity.identifier }}', relations: { owning_team: '{{ .entity.relations.owning_team }}' } } },
            'repository',
          ),
          selfService(
            'piped',
            { type: 'UPSERT_ENTITY', blueprintIdentifier: 'repository', mapping: { identifier: '{{ .entity.identifier }}', relations: { owning_team: '{{ .entity.relations | .owning_team }}' } } },
            'repository',
          ),
        ],
      }),
      findings: [
        { location: 'invocationMethod.mapping.team', resource: A('dotted'), verdict: 'breaks', rewrite: 'devops' },
        { location: 'invocationMethod.mapping.team[0]', resource: A('mixed'), verdict: 'review' },
        { location: 'invocationMethod.mapping.team[1]', resource: A('mixed'), verdict: 'breaks', rewrite: 'payments', evidence: 'Payments' },
        {
          location: 'invocationMethod.mapping.relations.owning_team',
          resource: A('reassign'),
          verdict: 'breaks',
          rewrite: JSON.stringify({ team: '{{ .entity.team }}' }),
        },
        // read another way, no rewrite is certain: the suggestion says what to do
        { location: 'invocationMethod.mapping.relations.owning_team', resource: A('piped'), verdict: 'breaks', rewrite: undefined },
      ],
    },
    {
      name: 'the older mapping.entity shape, inside invocationMethod and at the top',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('v2old', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { entity: { identifier: '.inputs.name', team: '"Payments"' } } }),
          selfService('v1', { type: 'KAFKA' }, 'service', { mapping: { entity: { identifier: '.inputs.name', team: '[.entity.team[]]' } } }),
        ],
      }),
      findings: [
        { location: 'invocationMethod.mapping.entity.team', resource: A('v2old'), verdict: 'breaks', rewrite: '"payments"' },
        { location: 'mapping.entity.team', resource: A('v1'), verdict: 'review' },
      ],
    },
    {
      name: 'automation trigger conditions reading .team',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [automation('page', ['.diff.after.properties.severity == "SEV1"', '.diff.after.team | index("Payments") != null', '.diff.before.team != .diff.after.team'])],
      }),
      findings: [
        { location: 'trigger.condition.expressions[1]', resource: AUTO('page'), verdict: 'breaks', rewrite: '.diff.after.team | index("payments") != null' },
        { location: 'trigger.condition.expressions[2]', resource: AUTO('page'), verdict: 'review', rewrite: undefined },
      ],
    },
    {
      name: 'webhook URL, body and headers with {{ }} templates',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService(
            'notify',
            {
              type: 'WEBHOOK',
              url: 'https://status.example/api/{{ .entity.identifier }}?owner={{ .entity.team[0] }}',
              headers: { 'X-Owner-Team': '{{ .entity.relations.owning_team[0] }}' },
              body: { team: '{{ .entity.team }}', channel: '{{ if (.entity.team | index("Payments")) then "#pay" else "#ops" end }}', list: ['ok', '{{ .entity.team | length }}'] },
            },
            'repository',
          ),
        ],
      }),
      findings: [
        { location: 'invocationMethod.url', resource: A('notify'), verdict: 'review', evidence: 'https://status.example/api/{{ .entity.identifier }}?owner={{ .entity.team[0] }}' },
        { location: 'invocationMethod.headers.X-Owner-Team', resource: A('notify'), verdict: 'breaks', rewrite: '{{ .entity.team[0] }}' },
        { location: 'invocationMethod.body.team', resource: A('notify'), verdict: 'review', reason: 'passes team values on under a "team" key' },
        {
          location: 'invocationMethod.body.channel',
          resource: A('notify'),
          verdict: 'breaks',
          rewrite: '{{ if (.entity.team | index("payments")) then "#pay" else "#ops" end }}',
        },
        { location: 'invocationMethod.body.list[1]', resource: A('notify'), verdict: 'review' },
      ],
    },
    {
      name: 'GitHub workflowInputs templates',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [selfService('restart', { type: 'GITHUB', org: 'acme', repo: 'ops', workflow: 'restart.yml', workflowInputs: { service: '{{ .entity.identifier }}', owners: '{{ .entity.team | join(",") }}' } })],
      }),
      findings: [{ location: 'invocationMethod.workflowInputs.owners', resource: A('restart'), verdict: 'review' }],
    },
    {
      name: 'an automation webhook header rewritten only inside its template',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          {
            ...automation('sync', ['.diff.after.properties.x == 1'], {
              type: 'WEBHOOK',
              url: 'https://x',
              headers: { 'X-Note': 'from .event.diff.after.relations.owning_team[0]: {{ .event.diff.after.relations.owning_team[0] }}' },
            }),
            trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'repository' } },
          },
        ],
      }),
      findings: [
        {
          location: 'invocationMethod.headers.X-Note',
          resource: AUTO('sync'),
          verdict: 'breaks',
          rewrite: 'from .event.diff.after.relations.owning_team[0]: {{ .event.diff.after.team[0] }}',
        },
      ],
    },
    {
      name: 'an UPSERT_ENTITY into another blueprint writes that blueprint’s removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('add_repo', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'repository', mapping: { identifier: '.inputs.name', relations: { owning_team: '.entity.team' } } }, 'service'),
        ],
      }),
      findings: [{ location: 'invocationMethod.mapping.relations.owning_team', resource: A('add_repo'), verdict: 'breaks', rewrite: JSON.stringify({ team: '.entity.team' }) }],
    },
    {
      name: 'an UPSERT_ENTITY from a beta blueprint reads its trigger entity’s removed relation',
      org: org({
        teams: TEAMS,
        blueprints: BLUEPRINTS,
        actions: [
          selfService('copy_owner', { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '.inputs.name', team: '.entity.relations.owning_team' } }, 'repository'),
        ],
      }),
      findings: [{ location: 'invocationMethod.mapping.team', resource: A('copy_owner'), verdict: 'breaks', rewrite: '.entity.team' }],
    },
  ],
});
