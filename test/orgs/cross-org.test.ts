import { describe, expect, it } from 'vitest';
import { crossOrgChecks, type OrgTeamsOf } from '../../src/orgs/cross-org.js';
import { orgTeams } from '../../src/orgs/org-teams.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

/** An org with a `platform` team (title "Platform Team") that has a member, and what `extra` adds. */
function org(id: string, extra: Partial<OrgSnapshot> = {}): OrgTeamsOf {
  const snapshot: OrgSnapshot = {
    format: 'org-snapshot/1',
    organization: { id, name: id.toUpperCase() },
    blueprints: [],
    teams: [{ name: 'Platform Team', identifier: 'platform' }],
    entities: { _team: [{ identifier: 'platform', title: 'Platform Team' }] },
    users: [{ email: 'a@example.com', teams: [{ name: 'Platform Team' }] }],
    ...extra,
  };
  return { organization: snapshot.organization as { id: string; name: string }, teams: orgTeams(snapshot) };
}

const permissions = (teams: string[]) => ({ service: { entities: { update: { roles: [], users: [], teams } } } });

describe('orgTeams: what a report carries about its org teams', () => {
  it('lists teams, _team entities, members, the team names permissions hold and where, and what entities own', () => {
    const teams = org('dev', { blueprintPermissions: permissions(['platform', 'Payments']), entities: { _team: [{ identifier: 'platform', title: 'Platform Team' }], service: [{ identifier: 's', team: ['platform'] }, { identifier: 't', team: 'platform' }] } }).teams;
    expect(teams.listed).toEqual([{ title: 'Platform Team', identifier: 'platform' }]);
    expect(teams.entities).toEqual([{ identifier: 'platform', title: 'Platform Team' }]);
    expect({ ...teams.members }).toEqual({ 'Platform Team': 1 });
    expect(teams.named).toEqual([
      { value: 'platform', resource: 'blueprint service', location: 'permissions.entities.update.teams' },
      { value: 'Payments', resource: 'blueprint service', location: 'permissions.entities.update.teams' },
    ]);
    expect({ ...teams.owning }).toEqual({ platform: 2 });
  });

  it('says nothing of members when the org’s users were not read, or none were found', () => {
    expect(org('dev', { users: undefined }).teams.members).toBeUndefined();
    expect(org('dev', { users: [] }).teams.members).toBeUndefined();
  });
});

describe('crossOrgChecks', () => {
  it('team-missing: a permission names a team identifier another org has and this one lacks', () => {
    const dev = org('dev', { teams: [{ name: 'Platform Team', identifier: 'platform' }, { name: 'SRE', identifier: 'sre' }], entities: { _team: [{ identifier: 'sre', title: 'SRE' }] } });
    const prod = org('prod', { actionPermissions: { deploy: { execute: { roles: [], users: [], teams: ['sre', 'platform'] } } } });
    const checks = crossOrgChecks([dev, prod]);
    expect(checks.filter((c) => c.check === 'team-missing')).toEqual([
      expect.objectContaining({ org: 'prod', team: 'sre', resource: 'action deploy', location: 'permissions.execute.teams', message: expect.stringContaining('which org "PROD" does not have (it is a team of "DEV")') }),
    ]);
    // One org alone, or a value no org knows as a team: nothing to say across orgs.
    expect(crossOrgChecks([prod]).filter((c) => c.check === 'team-missing')).toEqual([]);
    expect(crossOrgChecks([org('dev'), org('prod', { actionPermissions: { deploy: { execute: { teams: ['nobody'] } } } })]).filter((c) => c.check === 'team-missing')).toEqual([]);
  });

  it('empty-team: a team nobody is in that grants access or owns entities', () => {
    const shells = org('dev', {
      teams: [{ name: 'Platform Team', identifier: 'platform' }, { name: 'Synced Shell', identifier: 'shell' }, { name: 'Unused Shell', identifier: 'unused' }],
      blueprintPermissions: permissions(['shell']),
      entities: { _team: [{ identifier: 'platform', title: 'Platform Team' }], service: [{ identifier: 's', team: ['shell'] }] },
    });
    const empty = crossOrgChecks([shells]).filter((c) => c.check === 'empty-team');
    expect(empty).toEqual([expect.objectContaining({ org: 'dev', team: 'shell', message: expect.stringContaining('has no members but is named by 1 permission and owns 1 entity') })]);
    // Without users read, nobody can say a team is empty.
    expect(crossOrgChecks([org('dev', { users: undefined, blueprintPermissions: permissions(['shell']), teams: [{ name: 'Synced Shell', identifier: 'shell' }] })]).filter((c) => c.check === 'empty-team')).toEqual([]);
  });

  it('phantom-team: a _team entity whose identifier is another team’s title, in its org or another', () => {
    const phantom = org('dev', { entities: { _team: [{ identifier: 'platform', title: 'Platform Team' }, { identifier: 'Payments' }] }, teams: [{ name: 'Platform Team', identifier: 'platform' }, { name: 'Payments', identifier: 'payments' }] });
    expect(crossOrgChecks([phantom]).filter((c) => c.check === 'phantom-team')).toEqual([expect.objectContaining({ org: 'dev', team: 'Payments' })]);
    const elsewhere = org('prod', { entities: { _team: [{ identifier: 'Platform Team' }] }, teams: [] });
    expect(crossOrgChecks([org('dev'), elsewhere]).filter((c) => c.check === 'phantom-team')).toEqual([expect.objectContaining({ org: 'prod', team: 'Platform Team', message: expect.stringContaining('(in "DEV")') })]);
    // A team whose identifier is its own title is no phantom.
    expect(crossOrgChecks([org('dev', { teams: [{ name: 'ops', identifier: 'ops' }], entities: { _team: [{ identifier: 'ops', title: 'ops' }] } })]).filter((c) => c.check === 'phantom-team')).toEqual([]);
     // A real team is no phantom, though its identifier is another team's title: it has a title of its
    // own (a made entity has none); the two teams are told apart by each org's judge.
    const real = org('prod', {
      teams: [{ name: 'Checkout', identifier: 'payments' }, { name: 'payments', identifier: 'payments-legacy' }],
      entities: { _team: [{ identifier: 'payments', title: 'Checkout' }, { identifier: 'payments-legacy', title: 'payments' }] },
    });
    expect(crossOrgChecks([real]).filter((c) => c.check === 'phantom-team')).toEqual([]);
  });
});
