/**
 * Issue 39, build 6: with a policy, an action's roles, users and teams say only who can SEE it;
 * the policy alone says who can run or approve it (the service's dynamic-permissions docs).
 * Without a policy the lists say both, and there is no separate `see`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAccess, holdersOfSites } from '../../src/access/compute-access.js';
import { permissionSites } from '../../src/access/permission-sites.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { FindingDraft, Verdict } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import type { Rule } from '../../src/rules/rule.js';

const action = (identifier: string) => ({ identifier, title: identifier, trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: {}, required: [] } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com/hook' } });

const snapshot = (): OrgSnapshot =>
  ({
    format: 'org-snapshot/1',
    organization: { id: 'org', name: 'Org' },
    blueprints: [],
    teams: [
      { name: 'Platform Team', identifier: 'platform' },
      { name: 'Payments', identifier: 'payments' },
    ],
    entities: {},
    actions: [action('deploy'), action('restart')],
    actionPermissions: {
      // Payments sees deploy; the policy lets Platform Team run it.
      deploy: { execute: { roles: [], users: [], teams: ['Payments'], policy: { queries: {}, conditions: ['.user.team | contains(["Platform Team"])'] } }, approve: { roles: ['Admin'], users: [], teams: [] } },
      restart: { execute: { roles: [], users: [], teams: ['Payments'] } },
    },
    users: [
      { email: 'alice@example.com', teams: [{ name: 'Platform Team' }], roles: [{ name: 'Member' }] },
      { email: 'bob@example.com', teams: [{ name: 'Payments' }], roles: [{ name: 'Member' }] },
    ],
  }) as unknown as OrgSnapshot;

let jq: JqEngine;
let catalog: Catalog;
beforeAll(async () => {
  jq = await loadJqEngine();
  catalog = buildCatalog(snapshot(), { jq });
});
afterAll(async () => jq.close?.());

/** Who holds each site of one action, with titles, as `permission: emails`. */
function holders(identifier: string): string[] {
  const sites = permissionSites(catalog).filter((site) => site.resource.identifier === identifier);
  const holdersAt = holdersOfSites(catalog, sites, catalog.people, ['titles']);
  return sites.map((site, i) => {
    const held = holdersAt(i)[0]!;
    const who = held.kind === 'known' ? catalog.people.filter((_, u) => held.holds[u] === 1).map((p) => p.email) : [held.reason];
    return `${site.permission}: ${who.join(' ')}`;
  });
}

describe('who can see and who can run an action', () => {
  it('with a policy: the lists say who sees it, the policy alone who runs it', () => {
    expect(holders('deploy')).toEqual(['execute: alice@example.com', 'see: bob@example.com', 'approve: ']);
  });

  it('without a policy: the lists say who runs it, and nothing is said apart about seeing', () => {
    expect(holders('restart')).toEqual(['execute: bob@example.com']);
  });

  it('the access report: the run right follows the policy, who sees it does not change', () => {
    const access = computeAccess(catalog, []) ?? [];
    expect(access.map((entry) => `${entry.resource.identifier} ${entry.permission} ${(entry.loses ?? []).join(' ')}`)).toEqual(['deploy execute alice@example.com']);
  });
});

/** A rule that says one policy condition is checked and fine, as a judge's miss would. */
const claims = (identifier: string, verdict: Verdict): Rule => ({
  category: 'action-dynamic-permission',
  asksJq: false,
  check: (): FindingDraft[] => [
    { category: 'action-dynamic-permission', resource: { type: 'action', identifier }, location: 'permissions.execute.policy.conditions[0]', evidence: 'x', reason: 'it gives the same result before the migration and after it', suggestion: '', verdict },
  ],
});

describe('a checked reference and an access change on the same place cannot both stand', () => {
  it('a condition people lose the run of leaves `verified` as a breaking finding linked to the change', () => {
    const report = analyze(catalog, { rules: [claims('deploy', 'unaffected')] });
    expect(report.verified ?? []).toEqual([]);
    const [finding] = report.findings;
    expect(finding?.verdict).toBe('breaks');
    expect(finding?.reason).toMatch(/^run for the org's people, the permission it decides changes hands with the migration \(1 lose it, 0 gain it\)/);
    expect(report.access?.map((entry) => entry.finding)).toEqual([finding?.id]);
    expect(finding?.impact?.users).toEqual({ loses: 1, gains: 0 });
    expect(report.summary.byCategory['action-dynamic-permission']).toBe(1);
  });

  it('a checked reference where nobody changes hands stays checked', () => {
    const report = analyze(catalog, { rules: [claims('restart', 'unaffected')] });
    expect(report.verified?.map((f) => f.resource.identifier)).toEqual(['restart']);
    expect(report.findings).toEqual([]);
  });
});
