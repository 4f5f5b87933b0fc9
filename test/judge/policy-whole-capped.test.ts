/**
 * Issue 39, items 3 and 7: a policy is run whole at a bounded cost. A query that finds more than
 * the 1,000 entities a query may send jq in a world leaves its policy not run whole, and its rules
 * say so (`not-run`, review) instead of being taken for alike. The condition here answers the same
 * for everybody in both worlds (`.results.q` is an object of one key), so with its 1,001 services
 * run it would be `policy-holds`; at 1,000 it still is, which the second case checks with jq.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

const CONDITION = '.results.q | length > 0';
const AT = 'permissions.execute.policy.queries.q.rules[0]';

function snapshot(services: number): OrgSnapshot {
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_big', name: 'Big org' },
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    teams: [{ name: 'Backend', identifier: 'backend-core' }],
    entities: { service: Array.from({ length: services }, (_, i) => ({ identifier: `svc-${i}`, team: ['Backend'] })) },
    actions: [{ identifier: 'release', title: 'Release', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { release: { execute: { roles: [], users: [], teams: [], policy: { queries: { q: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: 'Backend' }] } }, conditions: [CONDITION] } }, approve: { roles: [], users: [], teams: [] } } },
  } as unknown as OrgSnapshot;
}

const at = (report: Report) => report.findings.find((f) => f.location === AT) ?? report.verified?.find((f) => f.location === AT);

describe('a policy whose query finds more entities than are run whole', () => {
  it('1,001 services found before the migration: not run whole, a review saying why', () => {
    const finding = at(analyze(buildCatalog(snapshot(1001), { jq })));
    expect(finding?.verdict).toBe('review');
    expect(finding?.reason).toContain('query "q" finds 1001 entities in one world, more than the 1000');
  });

  it('1,000 services: run whole, the condition answers alike for everybody, unaffected', () => {
    // Whatever the query finds, `.results.q` is `{entities: [...]}`: one key, in both worlds.
    for (const entities of [[], [{ identifier: 'svc-0', team: ['Backend'] }]]) expect(jq.evaluate({ results: { q: { entities } } }, CONDITION)).toEqual({ ok: true, values: [true] });
    expect(at(analyze(buildCatalog(snapshot(1000), { jq })))?.verdict).toBe('unaffected');
  });
});
