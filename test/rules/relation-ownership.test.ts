import { describe, expect, it } from 'vitest';
import { betaBlueprint, blueprint, org, ruleTester, runRule } from '../support/rule-tester.js';

const teamRelation = { target: '_team', many: true, required: false };
const cloud = (extra = {}) => blueprint('cloud_resource', { relations: { responsible_team: teamRelation, service: { target: 'service' } }, ...extra });
const MAPPING = JSON.stringify({ entity: { team: '.relations.responsible_team' } });
const CLOUD = { type: 'blueprint' as const, identifier: 'cloud_resource' };

ruleTester('relation-ownership', {
  valid: [
    { name: 'no relation to _team', org: org({ blueprints: [blueprint('service', { relations: { domain: { target: 'domain' } } })] }) },
    { name: 'teamInheritance over the _team relation (team-relation-removed covers it)', org: org({ blueprints: [betaBlueprint('repository')] }) },
    {
      name: 'Direct ownership and every entity migrated (or never related)',
      org: org({
        blueprints: [cloud({ ownership: { type: 'Direct' } })],
        entities: {
          cloud_resource: [
            { identifier: 'a', team: ['payments'], relations: { responsible_team: ['payments'] } },
            { identifier: 'b', relations: { responsible_team: [] } },
            { identifier: 'c', team: 'payments', relations: { responsible_team: 'payments' } },
            { identifier: 'd' },
          ],
        },
      }),
    },
    {
      name: 'Inherited ownership: the _team relation is not where the blueprint’s ownership lives',
      org: org({
        blueprints: [blueprint('service'), cloud({ ownership: { type: 'Inherited', path: 'service' } })],
        entities: { cloud_resource: [{ identifier: 'b', relations: { responsible_team: ['platform'] } }] },
      }),
    },
  ],
  invalid: [
    {
      name: 'a _team relation with no teamInheritance and no ownership',
      org: org({ blueprints: [cloud()], entities: {} }),
      findings: [{ location: 'relations.responsible_team', resource: CLOUD, rewrite: MAPPING, suggestion: ['Direct', MAPPING], evidence: JSON.stringify({ responsible_team: teamRelation }) }],
    },
    {
      name: 'Direct ownership, but entities still hold their team only in the relation',
      org: org({
        blueprints: [cloud({ ownership: { type: 'Direct' } })],
        entities: {
          cloud_resource: [
            { identifier: 'a', team: ['payments'], relations: { responsible_team: ['payments'] } },
            { identifier: 'b', relations: { responsible_team: ['platform'] } },
            { identifier: 'c', team: [], relations: { responsible_team: 'platform' } },
          ],
        },
      }),
      findings: [{ location: 'relations.responsible_team', resource: CLOUD, rewrite: MAPPING, reason: '2 entities', suggestion: MAPPING }],
    },
    {
      // ownership-direct reports the Direct ownership; this must not contradict it.
      name: 'no ownership yet, but entities carry $team: the migration sets Direct, the relation data still has to move',
      org: org({
        blueprints: [cloud()],
        entities: { cloud_resource: [{ identifier: 'a', team: ['Payments'], relations: { responsible_team: 'payments' } }] },
      }),
      findings: [{ location: 'relations.responsible_team', resource: CLOUD, rewrite: MAPPING, reason: 'the migration sets Direct ownership', suggestion: ['After the migration', MAPPING] }],
    },
    {
      name: 'two _team relations: one finding each',
      org: org({ blueprints: [blueprint('svc', { relations: { owners: teamRelation, reviewers: teamRelation } })] }),
      findings: [
        { location: 'relations.owners', resource: { type: 'blueprint', identifier: 'svc' }, rewrite: JSON.stringify({ entity: { team: '.relations.owners' } }) },
        { location: 'relations.reviewers', resource: { type: 'blueprint', identifier: 'svc' }, rewrite: JSON.stringify({ entity: { team: '.relations.reviewers' } }) },
      ],
    },
  ],
});

describe('relation-ownership without entities in the snapshot', () => {
  it('still flags a Direct-ownership blueprint, and says the entities could not be checked', () => {
    const findings = runRule('relation-ownership', org({ blueprints: [cloud({ ownership: { type: 'Direct' } })] }));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding!.location).toBe('relations.responsible_team');
    expect(finding!.reason).not.toMatch(/undefined|NaN/);
    expect(`${finding!.reason} ${finding!.note ?? ''}`).toContain('not');
    expect(finding!.suggestion).toContain(MAPPING);
  });
});

describe('a completed data migration (issue 25: GET /v1/migrations, read live after the migration)', () => {
  const withMigrations = (migrations?: Record<string, unknown[]>) =>
    org({
      blueprints: [cloud({ ownership: { type: 'Direct' } })],
      entities: { cloud_resource: [{ identifier: 'late', relations: { responsible_team: ['platform'] } }] },
      ...(migrations && { migrations }),
    } as never);
  it('is named beside the entities still to move', () => {
    const [finding] = runRule('relation-ownership', withMigrations({ cloud_resource: [{ id: 'mig_7', status: 'COMPLETED' }] }));
    expect(finding!.reason).toContain('1 entity still keeps its team only in relation "responsible_team". A data migration for this blueprint completed (mig_7)');
  });
  it('is not mentioned when none is recorded', () => {
    for (const migrations of [undefined, { cloud_resource: [] }]) {
      const [finding] = runRule('relation-ownership', withMigrations(migrations));
      expect(finding!.reason).not.toContain('data migration');
    }
  });
});
