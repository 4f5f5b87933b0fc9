/**
 * Issue 39, items 3 and 7: in a half-way org a policy is judged whole over the org's entities as
 * each holds its teams today. Blueprint `service` has ownership and its entities hold team
 * identifiers already; `library` has neither and its entities still hold titles. A query on
 * `$team` against the user's teams' `$identifier` finds the services today and every entity after
 * the migration: a condition that asks whether it finds anything answers alike for whoever owns a
 * service. The truth is computed with jq: the query as a filter over the org's entities in each
 * world, then the condition on what it finds, for every user of the org.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();
type World = 'before' | 'after';

const TEAMS = [
  { name: 'Backend', identifier: 'backend-core' },
  { name: 'Frontend', identifier: 'web-ui' },
  { name: 'Data', identifier: 'data' },
  { name: 'Mobile', identifier: 'mobile-apps' },
];
const USERS = [
  { email: 'ana@example.com', teams: [{ name: 'Backend' }] },
  { email: 'bo@example.com', teams: [{ name: 'Frontend' }] },
  { email: 'cy@example.com', teams: [] },
  { email: 'di@example.com', teams: [{ name: 'Backend' }, { name: 'Data' }] },
];
const MOBILE_USER = { email: 'eve@example.com', teams: [{ name: 'Mobile' }] };
const idOf = new Map(TEAMS.map((t) => [t.name, t.identifier]));

/** Services of every team but Mobile hold identifiers today; libraries of every team hold titles. */
const SERVICES = TEAMS.slice(0, 3).map((t, i) => ({ identifier: `svc-${i}`, team: [t.identifier] }));
const LIBRARIES = TEAMS.map((t, i) => ({ identifier: `lib-${i}`, team: [t.name] }));

const CONDITION = '.results.q.entities | length > 0';
const query = (property: string) => ({ combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: { context: 'userTeams', property } }] });

function snapshot(property: string, users: readonly (typeof USERS)[number][]): OrgSnapshot {
  const blueprint = (identifier: string, ownership: boolean) => ({ identifier, title: identifier, schema: { properties: {} }, relations: {}, ...(ownership && { ownership: { type: 'Direct' } }) });
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_half', name: 'Half-way org' },
    blueprints: [blueprint('service', true), blueprint('library', false)],
    teams: TEAMS,
    users: [...users],
    entities: { service: SERVICES, library: LIBRARIES },
    actions: [{ identifier: 'release', title: 'Release', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { release: { execute: { roles: [], users: [], teams: [], policy: { queries: { q: query(property) }, conditions: [CONDITION] } }, approve: { roles: [], users: [], teams: [] } } },
  } as unknown as OrgSnapshot;
}

/** Each user's answer in a world: the query run in jq over the org's entities as they hold teams there. */
function answers(property: string, users: readonly (typeof USERS)[number][], world: World): string[] {
  const entities = [...SERVICES, ...LIBRARIES.map((e) => ({ ...e, team: world === 'before' ? e.team : e.team.map((t) => idOf.get(t)!) }))];
  return users.map((u) => {
    // The user's teams read as the rule's context property: identifiers or titles, alike in both worlds.
    const mine = u.teams.map((t) => (property === '$identifier' ? idOf.get(t.name)! : t.name));
    const found = jq.evaluate({ entities, mine }, '.mine as $m | [.entities[] | select(any(.team[]; . as $t | $m | index([$t]) != null))]');
    if (!found.ok) throw new Error(found.error);
    const run = jq.evaluate({ user: { email: u.email }, results: { q: { entities: found.values[0] } } }, CONDITION);
    return JSON.stringify(run.ok ? run.values : run.error);
  });
}

const AT = 'permissions.execute.policy.queries.q.rules[0]';
const verdictAt = (report: Report) => report.findings.find((f) => f.location === AT)?.verdict ?? (report.verified?.some((f) => f.location === AT) ? 'unaffected' : undefined);

describe('a policy judged whole in a half-way org, over the entities as each holds its teams today', () => {
  it("the user's team identifiers: every user gets the same answer in both worlds, so the rule is unaffected", () => {
    expect(answers('$identifier', USERS, 'before')).toEqual(answers('$identifier', USERS, 'after'));
    expect(verdictAt(analyze(buildCatalog(snapshot('$identifier', USERS), { jq })))).toBe('unaffected');
  });

  it('a user whose team owns only a library gets another answer after the migration: the rule keeps its finding', () => {
    const users = [...USERS, MOBILE_USER];
    expect(answers('$identifier', users, 'before')).not.toEqual(answers('$identifier', users, 'after'));
    expect(verdictAt(analyze(buildCatalog(snapshot('$identifier', users), { jq })))).toBe('breaks');
  });

  it("the user's team titles: the services hold identifiers today, so the answer changes; still breaks", () => {
    expect(answers('$title', USERS, 'before')).not.toEqual(answers('$title', USERS, 'after'));
    expect(verdictAt(analyze(buildCatalog(snapshot('$title', USERS), { jq })))).toBe('breaks');
  });
});
