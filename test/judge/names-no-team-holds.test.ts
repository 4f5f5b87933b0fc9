/**
 * Issue 39, held-out miss (m3): in a migrated org, a literal compared with the user's team NAMES
 * (`[.user.teams[].name]`, titles in both worlds) was called "no team of the org today", because a
 * team of today was tried with its identifier standing for its name too. Each team of the org is
 * tried as it is, title and identifier, so the lower-cased name "mobile apps" meets "mobile".
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, MIGRATED_ORGANIZATION, org } from './two-worlds.js';

const jq = useJqEngine();
const TEAMS = [
  { name: 'Payments', identifier: 'payments' },
  { name: 'Mobile Apps', identifier: 'tm_8c1f' },
];
const USERS = [
  { email: 'ana@example.com', teams: [{ name: 'Payments' }] },
  { email: 'cat@example.com', teams: [{ name: 'Mobile Apps' }] },
];

/** Who passes, by jq, with the user as the service shows them: names are titles, `team` the world's team values. */
function passing(condition: string, world: 'before' | 'after'): string[] {
  return USERS.filter((user) => {
    const team = user.teams.map((t) => (world === 'before' ? t.name : TEAMS.find((x) => x.name === t.name)!.identifier));
    const result = jq.evaluate({ user: { email: user.email, team, teams: user.teams.map((t) => ({ name: t.name, provider: 'port' })), teamsIdentifiers: team }, results: {} }, `first((${condition}) | (. != false and . != null)) // false`);
    return result.ok && result.values[0] === true;
  }).map((user) => user.email);
}

const policyOrg = (condition: string) =>
  org(
    {
      organization: MIGRATED_ORGANIZATION,
      users: USERS,
      actions: [{ identifier: 'p', title: 'p', trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
      actionPermissions: { p: { execute: { roles: ['Admin'], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
    },
    TEAMS,
  );

describe('a policy over team names in a migrated org', () => {
  it.each([
    ['[.user.teams[].name] | map(ascii_downcase) | any(contains("mobile"))', 'unaffected'],
    ['.user.team | any(ascii_downcase | contains("mobile"))', 'breaks'],
  ] as const)('%s', (condition, shows) => {
    const same = JSON.stringify(passing(condition, 'before')) === JSON.stringify(passing(condition, 'after'));
    expect(same ? 'unaffected' : 'breaks', 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, policyOrg(condition), 'permissions.execute.policy.conditions[0]');
    if (same) expect(finding.verdict).not.toBe('breaks');
    else expect(finding.verdict).toBe('breaks');
  });
});
