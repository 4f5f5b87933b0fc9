/**
 * Issue 39, held-out miss: an org that has not migrated, whose action permission list names a team by
 * its identifier (`execute.teams: ["platform"]`, the team titled "Platform"). The service matches
 * explicit team entries against titles before the migration and identifiers after it (spec: "Titles
 * before the migration, identifiers after"; the migration replaces titles, and "platform" is none):
 * the entry lets nobody in today and Platform's members once teams are identifiers. The access report
 * said they gain the permission while the judge said nothing; both now give one answer.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { MIGRATED_ORGANIZATION, org } from './two-worlds.js';

const jq = useJqEngine();
const TEAMS = [
  { name: 'Platform', identifier: 'platform' },
  { name: 'QA', identifier: 'qa' },
];
const USERS = [
  { email: 'ana@example.com', teams: [{ name: 'Platform' }] },
  { email: 'bo@example.com', teams: [{ name: 'QA' }] },
];

/**
 * Who an explicit team list lets in, as the service matches it: the users' team titles against the
 * list before the migration; after it, their identifiers against the list whose titles the migration
 * replaced with identifiers (anything else in it stays as written).
 */
function holders(entries: readonly string[], world: 'before' | 'after'): string[] {
  const identifierOf = (title: string) => TEAMS.find((team) => team.name === title)?.identifier;
  const list = world === 'before' ? entries : entries.map((entry) => identifierOf(entry) ?? entry);
  const value = (title: string) => (world === 'before' ? title : identifierOf(title)!);
  return USERS.filter((user) => user.teams.some((team) => list.includes(value(team.name)))).map((user) => user.email);
}

function permitted(entries: string[], migrated = false): OrgSnapshot {
  return org(
    {
      users: USERS,
      ...(migrated && { organization: MIGRATED_ORGANIZATION }),
      actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
      actionPermissions: { deploy: { execute: { roles: [], users: [], teams: entries }, approve: { roles: [], users: [], teams: [] } } },
    },
    TEAMS,
  );
}

const LOCATION = 'permissions.execute.teams';

describe('an explicit team list written with identifiers before the migration', () => {
  it('is a finding the access entry points at, and both say Platform gains the permission', () => {
    const entries = ['platform'];
    const gains = holders(entries, 'after').filter((email) => !holders(entries, 'before').includes(email));
    expect(gains, 'the service gives it to Platform only after the migration').toEqual(['ana@example.com']);
    const report = analyze(buildCatalog(permitted(entries), { jq }));
    const finding = report.findings.find((f) => f.location === LOCATION);
    // An automatic category's change: no verdict, a person confirms who gains.
    expect(finding?.verdict).toBeUndefined();
    expect(finding?.reason).toContain('today this entry lets nobody in, and once teams are identifiers the members of "Platform" gain the permission');
    const change = (report.access ?? []).find((c) => c.permission === 'execute' || c.finding === finding?.id);
    expect(change?.gains).toEqual(gains);
    expect(change?.finding).toBe(finding?.id);
  });

  it('a list of titles is the migration\'s own rewrite: no verdict, and nobody gains or loses', () => {
    const entries = ['Platform'];
    expect(holders(entries, 'after')).toEqual(holders(entries, 'before'));
    const report = analyze(buildCatalog(permitted(entries), { jq }));
    const finding = report.findings.find((f) => f.location === LOCATION);
    expect(finding?.rewrite).toBe('["platform"]');
    expect(finding?.verdict).toBeUndefined();
    expect((report.access ?? []).filter((c) => c.gains?.length || c.loses?.length)).toEqual([]);
  });

  it('once the org has migrated, an identifier is what the list must hold: nothing to say', () => {
    const report = analyze(buildCatalog(permitted(['platform'], true), { jq }));
    expect(report.findings.filter((f) => f.location === LOCATION)).toEqual([]);
    expect((report.access ?? []).filter((c) => c.gains?.length || c.loses?.length)).toEqual([]);
  });
});
