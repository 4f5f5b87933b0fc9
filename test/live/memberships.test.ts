/**
 * Issue 25: `GET /v1/teams` carries every team's members (`users[{email, …}]`) in the one read of
 * the teams list. Members are kept as emails only, and they stand in for the users' teams where
 * `GET /v1/users` answered without them (a token or an older service without the field).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { TEAMS_PATH } from '../../src/sources/users.js';
import { loadFixture, readText, run, tempDir, withSandbox } from './harness.js';

const ACCESS_ORG = new URL('../../fixtures/access-org.json', import.meta.url).pathname;

async function snapshotAndReport(options: { usersWithoutTeams?: boolean; teamsWithoutUsers?: boolean }) {
  const fixture = await loadFixture(ACCESS_ORG);
  return withSandbox({ snapshot: fixture, ...options }, async (sandbox, clock) => {
    const env = { PORT_TOKEN: sandbox.token };
    const file = join(await tempDir(), 'org.json');
    const snapshotCode = (await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], env, clock)).code;
    const out = await tempDir();
    const live = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], env, clock);
    const offlineOut = await tempDir();
    await run(['analyze', '--snapshot', ACCESS_ORG, '--out', offlineOut, '--format', 'json', '--fail-on', 'none', '--quiet'], {}, clock);
    const recordedOut = await tempDir();
    await run(['analyze', '--snapshot', file, '--out', recordedOut, '--format', 'json', '--fail-on', 'none', '--quiet'], {}, clock);
    return {
      fixture,
      snapshotCode,
      code: live.code,
      text: await readText(file),
      snapshot: JSON.parse(await readText(file)) as OrgSnapshot,
      report: JSON.parse(await readText(join(out, 'report.json'))) as Report,
      offline: JSON.parse(await readText(join(offlineOut, 'report.json'))) as Report,
      recorded: JSON.parse(await readText(join(recordedOut, 'report.json'))) as Report,
      teamReads: sandbox.requests.filter((r) => r.path.startsWith('/v1/teams')).map((r) => r.path),
    };
  });
}

describe('memberships from the teams list (GET /v1/teams)', () => {
  it("the teams list's members are cut to nothing: the teams are kept as the contract says, no member's name", async () => {
    const result = await snapshotAndReport({});
    expect(result.teamReads).toEqual([TEAMS_PATH, TEAMS_PATH]); // one per run: the snapshot, the analysis
    expect(result.snapshot.teams).toEqual(result.fixture.teams);
    expect(result.snapshot.users).toEqual(result.fixture.users);
    for (const marker of ['Privatename', 'pictures.example.com', 'firstName']) expect(result.text, marker).not.toContain(marker);
    expect(result.report.access).toEqual(result.offline.access);
  });

  it("users answered without their teams: each user's teams come from the teams' members, with a note", async () => {
    const result = await snapshotAndReport({ usersWithoutTeams: true });
    // In the teams list's order, not the user's: the same teams.
    const sorted = (users: OrgSnapshot['users']) => users?.map((user) => ({ ...user, teams: [...user.teams].map((team) => JSON.stringify(team)).sort() }));
    expect(sorted(result.snapshot.users)).toEqual(sorted(result.fixture.users));
    expect(result.code).toBe(0);
    expect(result.report.notes).toContainEqual(expect.stringContaining("GET /v1/users answered without the users' teams: taken from the members of each team in GET /v1/teams"));
    // A user's teams come in the teams list's order, which `.user.teams[0]` can tell apart: the
    // access is the recording's own, and found at all (not "no teams, no change").
    expect(result.report.access).toEqual(result.recorded.access);
    expect(result.report.access?.length).toBe(result.offline.access?.length);
  });

  it('teams answered without members: the users\' own teams are enough, nothing noted or lost', async () => {
    const result = await snapshotAndReport({ teamsWithoutUsers: true });
    expect(result.snapshot.users).toEqual(result.fixture.users);
    expect(result.report.incomplete).toEqual([]);
    expect(result.report.access).toEqual(result.offline.access);
  });

  it('neither answer says who is in which team: the users are a gap (exit 3), never users without teams', async () => {
    const result = await snapshotAndReport({ usersWithoutTeams: true, teamsWithoutUsers: true });
    expect(result.snapshot.users).toBeUndefined();
    expect(result.code).toBe(3);
    expect(result.report.incomplete).toEqual([{ resource: 'users', reason: 'GET /v1/users answered without the users\' teams, and GET /v1/teams without the teams\' members: who is in which team is not known' }]);
    expect(result.report.access).toBeUndefined();
  });
});
