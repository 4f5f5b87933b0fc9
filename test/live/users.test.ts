/**
 * Issue 14: GET /v1/users through the sandbox. Only email, teams and roles reach the snapshot or
 * any report, even from a service that sends every field of a user whatever `fields` asks for.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { filesIn } from '../support/files-in.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { analysableSnapshot, checkSnapshot } from '../../src/sources/validate-snapshot.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { USERS_PATH } from '../../src/sources/users.js';
import { loadFixture, readText, run, tempDir, withSandbox } from './harness.js';

const ACCESS_ORG = new URL('../../fixtures/access-org.json', import.meta.url).pathname;

/** Personal data a real service holds about each user; none of it may be kept. */
const PRIVATE = ['firstName', 'lastName', 'picture', 'status', 'providers', 'createdAt', 'updatedAt', 'orgs', 'teamsIdentifiers', 'description', 'isAdmin', 'provider'];

async function wideUsers() {
  const fixture = await loadFixture(ACCESS_ORG);
  return (fixture.users ?? []).map((user, index) => ({
    email: user.email,
    firstName: `First${index}`,
    lastName: `Secretname${index}`,
    picture: `https://pictures.example.com/u${index}.png`,
    status: 'ACTIVE',
    id: `user-id-${index}`,
    type: 'STANDARD',
    providers: ['port'],
    createdAt: '2024-07-29T15:51:28.071Z',
    updatedAt: '2024-07-29T15:51:28.071Z',
    orgs: [{ id: 'org_access' }],
    teams: user.teams.map((team) => ({ name: (team as { name: string }).name, provider: 'port', createdAt: '2024-01-01T00:00:00.000Z' })),
    roles: (user.roles ?? []).map((role) => ({ name: (role as { name: string }).name, description: 'a role', isAdmin: false, protected: true })),
  }));
}

describe('users through the sandbox (docs/formats.md, the org snapshot)', () => {
  it.each([
    ['a service that honours fields', false],
    ['a service that sends every field anyway', true],
  ])('%s: one GET asking for email, teams and roles; nothing else of a user is kept', async (_name, ignoreUserFields) => {
    const fixture = await loadFixture(ACCESS_ORG);
    await withSandbox({ snapshot: fixture, users: await wideUsers(), ignoreUserFields }, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token };
      const file = join(await tempDir(), 'org.json');
      expect((await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], env, clock)).code).toBe(0);
      expect(sandbox.requests.filter((r) => r.path.startsWith('/v1/users')).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${USERS_PATH} 200`]);
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(snapshot.users).toEqual(fixture.users);
      const text = await readFile(file, 'utf8');
      for (const field of [...PRIVATE, 'Secretname', 'pictures.example.com', 'user-id-']) expect(text, field).not.toContain(field);

      // Every report format, from the live org: emails yes, anything else of a user no.
      const out = await tempDir();
      const live = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json,html,md,sarif,junit', '--fail-on', 'none', '--quiet'], env, clock);
      expect(live.code).toBe(0);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as Report;
      expect(report.access?.length).toBeGreaterThan(0);
      for (const name of await filesIn(out)) {
        const written = await readText(join(out, name));
        for (const marker of ['Secretname', 'pictures.example.com', 'user-id-', 'First1']) expect(written, `${name}: ${marker}`).not.toContain(marker);
      }
      // The same access as analysing the fixture offline.
      const offlineOut = await tempDir();
      await run(['analyze', '--snapshot', ACCESS_ORG, '--out', offlineOut, '--format', 'json', '--fail-on', 'none', '--quiet'], {}, clock);
      const offline = JSON.parse(await readText(join(offlineOut, 'report.json'))) as Report;
      expect(report.access).toEqual(offline.access);
    });
  });

  it('a 403 on /v1/users leaves a gap: incomplete, exit 3, and no access section', async () => {
    const fixture = await loadFixture(ACCESS_ORG);
    await withSandbox({ snapshot: fixture, faults: [{ method: 'GET', path: USERS_PATH, status: 403 }] }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as Report;
      expect(report.incomplete.map((entry) => entry.resource)).toEqual(['users']);
      expect(report.access).toBeUndefined();
    });
  });

  it('a user list kept in a snapshot file is cut to email, teams and roles before analysis', async () => {
    const fixture = await loadFixture(ACCESS_ORG);
    const wide = { ...fixture, users: await wideUsers() };
    const dir = await tempDir();
    const file = join(dir, 'wide.json');
    await writeFile(file, JSON.stringify(wide));
    expect(analysableSnapshot(wide).users).toEqual(fixture.users);
    const out = join(dir, 'out');
    const result = await run(['analyze', '--snapshot', file, '--out', out, '--format', 'json,html,md,sarif', '--fail-on', 'none', '--quiet'], {}, createFakeClock());
    expect(result.code).toBe(0);
    for (const name of await filesIn(out)) {
      const written = await readText(join(out, name));
      for (const marker of ['Secretname', 'pictures.example.com', 'user-id-']) expect(written, `${name}: ${marker}`).not.toContain(marker);
    }
    expect((JSON.parse(await readText(join(out, 'report.json'))) as Report).access?.length).toBe(7);
  });
});

describe('users of an unexpected shape in a snapshot file', () => {
  it('are noted, and those without an email are left out of the access computation', async () => {
    const fixture = await loadFixture(ACCESS_ORG);
    const odd = { ...fixture, users: [...(fixture.users ?? []), { teams: [{ name: 'SRE' }] }, { email: 'x@example.com', teams: [7] }] };
    const checked = checkSnapshot(odd, 'odd.json');
    expect(checked.notes.filter((note) => note.includes('users'))).toEqual([
      expect.stringContaining('users[15]'),
      expect.stringContaining('users[16].teams[0]'),
    ]);
    expect(analysableSnapshot(checked.snapshot).users?.map((user) => user.email)).toEqual([...(fixture.users ?? []).map((user) => user.email), 'x@example.com']);
  });
});
