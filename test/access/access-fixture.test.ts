/**
 * Issue 14: who loses or gains a permission, on a fixture org of 15 users in overlapping teams
 * (fixtures/access-org.json), with the real jq engine. Every case of the issue is one action:
 * explicit lists (restart), ownedByTeam (scale), a page's read list (ops-dashboard), `contains`
 * (deploy), `index` (rollback), `any` (pay-out, approve), `IN` (migrate-db), a negated comparison
 * (request-access), an identifier comparison (purge-cache), a visibility rule (deploy's region
 * input) and an undecidable policy (promote).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAccess, stillLockedOut } from '../../src/access/compute-access.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

const FIXTURE = new URL('../../fixtures/access-org.json', import.meta.url).pathname;
const load = (): OrgSnapshot => JSON.parse(readFileSync(FIXTURE, 'utf8')) as OrgSnapshot;

let jq: JqEngine;
let report: Report;
beforeAll(async () => {
  jq = await loadJqEngine();
  report = analyze(buildCatalog(load(), { jq }));
});
afterAll(async () => jq.close?.());

/** One line per entry: resource, permission (input), then who loses and who gains. */
const lines = (access: Report['access']) =>
  (access ?? []).map((entry) =>
    [
      `${entry.resource.identifier} ${entry.permission}${entry.input ? `(${entry.input})` : ''}`,
      entry.loses ? `loses ${entry.loses.join(' ')}` : '',
      entry.gains ? `gains ${entry.gains.join(' ')}` : '',
      entry.undecidable ? 'undecidable' : '',
    ]
      .filter(Boolean)
      .join(' | '),
  );

describe('access on the fixture org', () => {
  it('lists exactly who loses and who gains, per action, approval and input', () => {
    expect(lines(report.access)).toEqual([
      'deploy execute | loses alice@example.com bob@example.com dave@example.com peggy@example.com',
      'deploy visible(region) | loses alice@example.com carol@example.com frank@example.com olivia@example.com',
      // `.user.team[] | IN(…)`: the first output decides, so olivia (Payments first) never had it.
      'migrate-db execute | loses dave@example.com erin@example.com heidi@example.com ivan@example.com',
      'pay-out approve | loses alice@example.com carol@example.com frank@example.com olivia@example.com',
      'promote execute | undecidable',
      // A negated comparison: the excluded title matches nobody once teams are identifiers.
      'request-access execute | gains frank@example.com grace@example.com mallory@example.com',
      'rollback execute | loses dave@example.com erin@example.com ivan@example.com',
    ]);
  });

  it('explicit lists, ownedByTeam, a page read list and an identifier comparison change nobody', () => {
    // Each has a finding (the migration rewrites it), or a checked reference (`verified`: purge-cache
    // compares an identifier), and no access entry.
    const found = (identifier: string) => [...report.findings, ...(report.verified ?? [])].filter((f) => f.resource.identifier === identifier).map((f) => f.category);
    expect(found('restart')).toEqual(['team-permission-identifiers']);
    expect(found('scale')).toEqual(['team-permission-identifiers']);
    expect(found('ops-dashboard')).toEqual(['team-permission-identifiers']);
    expect(found('purge-cache')).toEqual(['action-dynamic-permission']);
    const changed = new Set((report.access ?? []).map((entry) => entry.resource.identifier));
    for (const identifier of ['restart', 'scale', 'ops-dashboard', 'purge-cache']) expect(changed.has(identifier), identifier).toBe(false);
  });

  it('links every entry to the finding that causes it', () => {
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    for (const entry of report.access ?? []) {
      const finding = byId.get(entry.finding ?? '');
      expect(finding?.resource.identifier).toBe(entry.resource.identifier);
    }
    const region = report.access?.find((entry) => entry.input === 'region');
    expect(byId.get(region?.finding ?? '')?.location).toBe('trigger.userInputs.properties.region.visible.jqQuery');
    const promote = report.access?.find((entry) => entry.resource.identifier === 'promote');
    expect(byId.get(promote?.finding ?? '')?.location).toBe('permissions.execute.policy.queries.owned.rules[1]');
    expect(promote?.undecidable).toContain('.results');
  });

  it('never lists an admin as losing a permission to run or approve', () => {
    const emails = (report.access ?? []).filter((e) => e.permission !== 'visible').flatMap((entry) => [...(entry.loses ?? []), ...(entry.gains ?? [])]);
    expect(emails).not.toContain('root@example.com');
  });

  it('has no access key when the snapshot lists no users', () => {
    const snapshot = load();
    delete snapshot.users;
    const catalog = buildCatalog(snapshot, { jq });
    expect(computeAccess(catalog, report.findings)).toBeUndefined();
    expect(analyze(catalog).access).toBeUndefined();
  });
});

describe('input attributes other than visible', () => {
  it('a disabled jqQuery and the form-level required jqQuery are computed per user too', () => {
    const snapshot = load();
    const deploy = snapshot.actions!.find((a) => a.identifier === 'deploy')!;
    const form = (deploy.trigger as { userInputs: { properties: Record<string, unknown>; required: unknown } }).userInputs;
    form.properties.version = { type: 'string', disabled: { jqQuery: '.user.team | index("SRE") == null' } };
    form.required = { jqQuery: 'if (.user.team | index("Contractors")) then ["version"] else [] end' };
    const access = analyze(buildCatalog(snapshot, { jq })).access;
    expect(lines(access).filter((line) => line.startsWith('deploy'))).toEqual([
      // Disabled for everyone but SRE members before; for everyone after.
      'deploy disabled(version) | gains dave@example.com erin@example.com ivan@example.com',
      'deploy execute | loses alice@example.com bob@example.com dave@example.com peggy@example.com',
      // Required for contractors before; for nobody after. Region is in no list the form gives.
      'deploy required(version) | loses frank@example.com grace@example.com mallory@example.com',
      'deploy visible(region) | loses alice@example.com carol@example.com frank@example.com olivia@example.com',
    ]);
  });
});

describe('conditions that read more of the user than teams', () => {
  it('email, roles and .trigger.by.user reach the condition; only the team comparison changes its answer', () => {
    const snapshot = load();
    const deploy = snapshot.actions!.find((a) => a.identifier === 'deploy')!;
    const form = (deploy.trigger as { userInputs: { properties: Record<string, unknown> } }).userInputs;
    form.properties.version = {
      type: 'string',
      // `.user.roles` are `{name}` objects, as the service's user holds them.
      visible: { jqQuery: '(.user.roles | map(.name) | index("Admin")) == null and (.trigger.by.user.team | index("Platform Team")) != null and .user.email != "bob@example.com"' },
    };
    const access = analyze(buildCatalog(snapshot, { jq })).access;
    // Platform Team members lose it, but not root (an admin, by role) nor bob (by email), who never had it.
    expect(lines(access).filter((line) => line.startsWith('deploy visible(version)'))).toEqual(['deploy visible(version) | loses alice@example.com dave@example.com peggy@example.com']);
  });
});

describe('after the migration (the function --since calls)', () => {
  it('of those who were to lose a permission, lists who still lacks it in the migrated org', () => {
    const migrated = load();
    // The fix applied to deploy only; rollback still compares titles. The users API still lists
    // team names; the identifiers are the `_user` entities' team.
    migrated.actionPermissions!.deploy!.execute = { roles: [], users: [], teams: [], policy: { queries: {}, conditions: ['.user.team | contains(["platform"])'] } };
    migrated.entities = {
      ...migrated.entities,
      _user: (migrated.users ?? []).map((user) => ({
        identifier: user.email,
        team: user.teams.map((team) => (migrated.teams ?? []).find((t) => t.name === (team as { name: string }).name)?.identifier as string),
      })),
    };
    const still = stillLockedOut(report.access ?? [], buildCatalog(migrated, { jq }));
    expect(lines(still)).toEqual([
      // Not in the list: deploy (fixed), request-access (nobody lost it), promote (was undecidable, nobody listed).
      'migrate-db execute | loses dave@example.com erin@example.com heidi@example.com ivan@example.com',
      'pay-out approve | loses alice@example.com carol@example.com frank@example.com olivia@example.com',
      'rollback execute | loses dave@example.com erin@example.com ivan@example.com',
      'deploy visible(region) | loses alice@example.com carol@example.com frank@example.com olivia@example.com',
    ].sort((a, b) => (a < b ? -1 : 1)));
  });
});
