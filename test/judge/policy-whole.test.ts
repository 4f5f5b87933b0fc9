/**
 * Issue 39, item 3: a policy is judged whole, its queries with the conditions that read them.
 * Held out: queries `by_title` ($team = a title) and `by_id` ($team = its identifier), added up by
 * the condition, were judged one by one, so `by_title` was breaks though the condition gives every
 * user the same answer before and after the migration. The truth here is computed with jq: each
 * query's entities in each world (the query written as a jq filter over the org's entities), then
 * the condition run on those results for every user of the org, in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org, SERVICES_PER_TEAM, TEAMS, USERS } from './two-worlds.js';

const jq = useJqEngine();

type World = 'before' | 'after';
const identifierOf = new Map(TEAMS.map((t) => [t.name, t.identifier]));
const entitiesIn = (world: World) => SERVICES_PER_TEAM.map((s) => ({ ...s, title: s.identifier, team: world === 'before' ? s.team : s.team.map((t) => identifierOf.get(t)!) }));
const userIn = (u: (typeof USERS)[number], world: World) => ({ email: u.email, team: u.teams.map((t) => (world === 'before' ? t.name : identifierOf.get(t.name)!)), teams: u.teams });

const QUERIES = {
  by_title: { combinator: 'and', rules: [{ property: '$blueprint', operator: '=', value: 'service' }, { property: '$team', operator: '=', value: 'Data Science' }] },
  by_id: { combinator: 'and', rules: [{ property: '$blueprint', operator: '=', value: 'service' }, { property: '$team', operator: '=', value: 'data_science' }] },
};
/** The queries as jq filters over an entity, as the service matches them. */
const AS_JQ = { by_title: '.team | index("Data Science") != null', by_id: '.team | index("data_science") != null' };

/** The condition's answer for every user of the org, in a world, on the queries' results there. */
function answers(condition: string, world: World): string[] {
  const results = Object.fromEntries(
    Object.entries(AS_JQ).map(([id, filter]) => {
      const run = jq.evaluate(entitiesIn(world), `[.[] | select(${filter})]`);
      if (!run.ok) throw new Error(run.error);
      return [id, { entities: run.values[0] }];
    }),
  );
  return USERS.map((u) => {
    const run = jq.evaluate({ user: userIn(u, world), results }, condition);
    return JSON.stringify(run.ok ? run.values : run.error);
  });
}

const analyzed = (condition: string) =>
  analyze(
    buildCatalog(
      org({
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
        entities: { service: SERVICES_PER_TEAM },
        actions: [{ identifier: 'release', title: 'Release', trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
        actionPermissions: { release: { execute: { roles: [], users: [], teams: [], policy: { queries: QUERIES, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
      }),
      { jq },
    ),
  );
const AT = 'permissions.execute.policy.queries.by_title.rules[1]';
const verdictAt = (report: ReturnType<typeof analyzed>, location: string) => report.findings.find((f) => f.location === location)?.verdict ?? (report.verified?.some((f) => f.location === location) ? 'unaffected' : undefined);

describe("a policy judged whole: its queries with the condition that reads them", () => {
  it('two queries, a title and its identifier, added up by the condition: the same answer for everybody in both worlds, unaffected', () => {
    const condition = '((.results.by_title.entities | length) + (.results.by_id.entities | length)) > 0';
    expect(answers(condition, 'before')).toEqual(answers(condition, 'after'));
    expect(verdictAt(analyzed(condition), AT)).toBe('unaffected');
  });

  it('a condition that reads the title query alone changes its answer: still breaks', () => {
    const condition = '(.results.by_title.entities | length) > 0';
    expect(answers(condition, 'before')).not.toEqual(answers(condition, 'after'));
    expect(verdictAt(analyzed(condition), AT)).toBe('breaks');
  });

  it('a condition that tells the two queries apart changes its answer: still breaks', () => {
    const condition = '(.results.by_title.entities | length) >= (.results.by_id.entities | length)';
    expect(answers(condition, 'before')).not.toEqual(answers(condition, 'after'));
    expect(verdictAt(analyzed(condition), AT)).toBe('breaks');
  });

  it('a condition jq cannot answer on the results (it errors in both worlds) proves nothing: the rule keeps its verdict', () => {
    const condition = '.results.by_title.entities | map(.identifier) | index(.entity.identifier) != null';
    expect(() => answers(condition, 'before')).not.toThrow();
    expect(answers(condition, 'before').every((answer) => answer.includes('Cannot index'))).toBe(true);
    expect(verdictAt(analyzed(condition), AT)).toBe('breaks');
  });

  // Item 4 of issue 39: the access report must agree with the policy judged whole. Its conditions read
  // what the queries find, so it cannot say who runs the action: no one loses or gains it there, and
  // with every rule of the policy judged unaffected it names no undecidable entry either.
  it.each([
    '((.results.by_title.entities | length) + (.results.by_id.entities | length)) > 0',
    '.user.team as $mine | [.results.by_title.entities[], .results.by_id.entities[] | .team[]] | any(. as $t | $mine | index($t) != null)',
  ])('a policy that holds whole (%s): the access report names no change for it', (condition) => {
    expect(answers(condition, 'before')).toEqual(answers(condition, 'after'));
    const report = analyzed(condition);
    expect(verdictAt(report, AT)).toBe('unaffected');
    expect((report.access ?? []).filter((change) => change.resource.identifier === 'release')).toEqual([]);
  });
});
