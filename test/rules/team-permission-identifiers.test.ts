import { blueprint, org, ruleTester, TEAMS } from '../support/rule-tester.js';

const leaf = (teams: string[]) => ({ roles: ['Admin'], users: [], teams, ownedByTeam: false });
const selfService = (identifier: string) => ({ identifier, title: identifier, trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } } });
const bp = { type: 'blueprint' as const, identifier: 'service' };

ruleTester('team-permission-identifiers', {
  valid: [
    {
      name: 'a title equal to its own identifier, and identifiers known only from _team entities',
      org: org({
        teams: [{ name: 'sre' }],
        blueprints: [blueprint('service')],
        entities: { _team: [{ identifier: 'sre', title: 'sre' }, { identifier: 'ml' }] },
        blueprintPermissions: { service: { entities: { register: leaf(['sre', 'ml']) } } },
      }),
    },
    { name: 'no explicit teams at all', org: org({ teams: TEAMS, blueprints: [blueprint('service')], blueprintPermissions: { service: { entities: { register: { roles: ['Admin'], users: ['a@b.c'] } } } } }) },
  ],
  invalid: [
    {
      // The service matches team entries against titles until the migration, which replaces titles only:
      // an identifier that is no team's title lets nobody in today and its team's members afterwards.
      name: 'identifiers before the migration, at every level: nobody today, their teams afterwards',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        blueprintPermissions: {
          service: {
            entities: {
              register: leaf(['platform']),
              update: leaf(['platform', 'payments']),
              unregister: leaf([]),
              updateProperties: { language: leaf(['payments']) },
              updateMetadataProperties: { $team: leaf(['platform']) },
              updateRelations: { domain: leaf(['payments']) },
            },
          },
        },
        actions: [selfService('deploy')],
        actionPermissions: { deploy: { execute: leaf(['platform']), approve: { roles: [], users: [], teams: ['payments'] } } },
        pages: [{ identifier: 'home', title: 'Home', widgets: [] }],
        pagePermissions: { home: { read: { roles: ['Member'], users: [], teams: ['payments'] } } },
      }),
      findings: [
        { location: 'permissions.entities.register.teams', resource: bp, verdict: undefined, rewrite: undefined, evidence: '["platform"]', reason: ['by identifier ("platform") before the migration', 'today this entry lets nobody in', 'the members of "Platform Team" gain the permission'] },
        { location: 'permissions.entities.update.teams', resource: bp, verdict: undefined, reason: '"Platform Team", "Payments"' },
        { location: 'permissions.entities.updateProperties.language.teams', resource: bp, verdict: undefined },
        { location: 'permissions.entities.updateMetadataProperties.$team.teams', resource: bp, verdict: undefined },
        { location: 'permissions.entities.updateRelations.domain.teams', resource: bp, verdict: undefined },
        { location: 'permissions.execute.teams', resource: { type: 'action', identifier: 'deploy' }, verdict: undefined },
        { location: 'permissions.approve.teams', resource: { type: 'action', identifier: 'deploy' }, verdict: undefined },
        { location: 'permissions.read.teams', resource: { type: 'page', identifier: 'home' }, verdict: undefined },
      ],
    },
    {
      name: 'blueprint permissions at every level name teams by title',
      org: org({
        teams: TEAMS,
        blueprints: [blueprint('service')],
        blueprintPermissions: {
          service: {
            entities: {
              register: leaf(['Platform Team']),
              update: leaf(['platform', 'Payments']),
              unregister: leaf(['Payments']),
              updateProperties: { language: leaf(['Payments']), ok: leaf(['payments']) },
              updateMetadataProperties: { $team: leaf(['Platform Team']) },
              updateRelations: { domain: leaf(['Payments']) },
            },
          },
        },
      }),
      findings: [
        { location: 'permissions.entities.register.teams', resource: bp, rewrite: '["platform"]', evidence: '["Platform Team"]', reason: 'Platform Team', suggestion: '["platform"]', note: undefined },
        { location: 'permissions.entities.update.teams', resource: bp, rewrite: '["platform","payments"]' },
        { location: 'permissions.entities.unregister.teams', resource: bp, rewrite: '["payments"]' },
        { location: 'permissions.entities.updateProperties.language.teams', resource: bp, rewrite: '["payments"]' },
        { location: 'permissions.entities.updateProperties.ok.teams', resource: bp, verdict: undefined, rewrite: undefined },
        { location: 'permissions.entities.updateMetadataProperties.$team.teams', resource: bp, rewrite: '["platform"]' },
        { location: 'permissions.entities.updateRelations.domain.teams', resource: bp, rewrite: '["payments"]' },
      ],
    },
    {
      name: 'action execute and approve, page read',
      org: org({
        teams: TEAMS,
        actions: [selfService('deploy')],
        actionPermissions: { deploy: { execute: { ...leaf(['Payments']), policy: { queries: {}, conditions: [] } }, approve: { roles: [], users: [], teams: ['Platform Team'] } } },
        pages: [{ identifier: 'home', title: 'Home', widgets: [] }],
        pagePermissions: { home: { read: { roles: [], users: [], teams: ['Payments', 'platform'] } } },
      }),
      findings: [
        { location: 'permissions.execute.teams', resource: { type: 'action', identifier: 'deploy' }, rewrite: '["payments"]' },
        { location: 'permissions.approve.teams', resource: { type: 'action', identifier: 'deploy' }, rewrite: '["platform"]' },
        { location: 'permissions.read.teams', resource: { type: 'page', identifier: 'home' }, rewrite: '["payments","platform"]' },
      ],
    },
    {
      name: 'an automation keeps its resource type',
      org: org({
        teams: TEAMS,
        actions: [{ identifier: 'sync', title: 'Sync', trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' } } }],
        actionPermissions: { sync: { execute: leaf(['Payments']) } },
      }),
      findings: [{ location: 'permissions.execute.teams', resource: { type: 'automation', identifier: 'sync' }, rewrite: '["payments"]' }],
    },
    {
      name: 'a title whose identifier is not known yet: a note, no rewrite',
      org: org({ teams: TEAMS, blueprints: [blueprint('service')], blueprintPermissions: { service: { entities: { register: leaf(['Data Science']) } } } }),
      findings: [{ location: 'permissions.entities.register.teams', resource: bp, rewrite: undefined, reason: 'Data Science', note: 'not known yet' }],
    },
    {
      name: 'the teams map supplies the identifier',
      org: org({ teams: TEAMS, blueprints: [blueprint('service')], blueprintPermissions: { service: { entities: { register: leaf(['Data Science']) } } } }),
      teamsMap: { 'Data Science': 'data_science' },
      findings: [{ location: 'permissions.entities.register.teams', resource: bp, rewrite: '["data_science"]', note: undefined }],
    },
    {
      name: 'a value that is no known team: a note, no rewrite',
      org: org({ teams: TEAMS, blueprints: [blueprint('service')], blueprintPermissions: { service: { entities: { register: leaf(['Old Team']) } } } }),
      findings: [{ location: 'permissions.entities.register.teams', resource: bp, rewrite: undefined, note: 'Old Team' }],
    },
    {
      name: 'permissions of a blueprint missing from the blueprint list keep its identifier',
      org: org({ teams: TEAMS, blueprintPermissions: { ghost: { entities: { register: leaf(['Payments']) } } } }),
      findings: [{ location: 'permissions.entities.register.teams', resource: { type: 'blueprint', identifier: 'ghost' }, rewrite: '["payments"]' }],
    },
  ],
});
