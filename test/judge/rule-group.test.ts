/**
 * Issue 39: a search rule is judged whole, with its combinators. An `or` of a team's title and
 * its identifier matches the same entities before the migration (the title leaf) and after it
 * (the identifier leaf), so neither leaf is a change; an `and` whose other leaf does not make up
 * for the title leaf still changes.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org, SERVICES_PER_TEAM } from './two-worlds.js';

const jq = useJqEngine();

const filtered = (filterBy: JsonObject) =>
  analyze(
    buildCatalog(
      org({
        blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
        entities: { service: SERVICES_PER_TEAM },
        pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy } } } }] }],
      }),
      { jq },
    ),
  );
const BASE = 'widgets[0].blueprintConfig.service.filterSettings.filterBy';
const title = { property: '$team', operator: 'containsAny', value: ['Data Science'] };
const identifier = { property: '$team', operator: 'containsAny', value: ['data_science'] };
const atLeaves = (report: ReturnType<typeof filtered>, list: 'findings' | 'verified') => (report[list] ?? []).filter((f) => f.location.startsWith(`${BASE}.rules[`)).map((f) => f.location);

describe('a search rule judged whole (issue 39)', () => {
  it('an `or` of a team title and its identifier keeps matching: no leaf is flagged, both are verified', () => {
    const report = filtered({ combinator: 'or', rules: [title, identifier] });
    expect(atLeaves(report, 'findings')).toEqual([]);
    expect(atLeaves(report, 'verified')).toEqual([`${BASE}.rules[0]`, `${BASE}.rules[1]`]);
  });

  it('an `and` of the title and another team rule matches Data Science before and nobody after: still flagged', () => {
    const report = filtered({ combinator: 'and', rules: [title, { property: '$team', operator: 'notIn', value: ['Beta'] }] });
    expect(report.findings.find((f) => f.location === `${BASE}.rules[0]`)?.verdict).toBe('breaks');
  });

  it('an `and` of a title and its identifier matches nobody before or after: for review, not verified', () => {
    const report = filtered({ combinator: 'and', rules: [title, identifier] });
    expect(atLeaves(report, 'verified')).toEqual([]);
    const leaves = report.findings.filter((f) => f.location.startsWith(`${BASE}.rules[`));
    expect(leaves.map((f) => f.verdict)).toEqual(['review', 'review']);
    expect(leaves[0]?.reason).toContain('matches no entity before the migration nor after it');
  });

  it('an `or` of two titles still breaks', () => {
    const report = filtered({ combinator: 'or', rules: [title, { property: '$team', operator: 'containsAny', value: ['QA'] }] });
    expect(report.findings.filter((f) => f.location.startsWith(`${BASE}.rules[`)).map((f) => f.verdict)).toEqual(['breaks', 'breaks']);
  });

  it('matches nobody with the identifiers known, but a team whose identifier is not known may get the value: says so', () => {
    // Held out: "no team of the org holds "sre", by title or identifier" of a team titled SRE whose
    // identifier the migration has not assigned yet told the reader nothing would change.
    const report = analyze(
      buildCatalog(
        org({
          teams: [{ name: 'SRE' }, { name: 'Payments', identifier: 'payments' }],
          blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
          entities: { service: [{ identifier: 'a', title: 'a', team: ['SRE'] }, { identifier: 'b', title: 'b', team: ['Payments'] }] },
          pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: ['sre'] }] } } } } }] }],
        }),
        { jq },
      ),
    );
    const leaf = report.findings.find((f) => f.location === `${BASE}.rules[0]`);
    expect(leaf?.verdict).toBe('review');
    expect(leaf?.reason).not.toContain('by title or identifier');
    expect(leaf?.reason).toContain('"SRE"');
    expect(leaf?.suggestion).toContain('--teams-map');
  });
});

// Held-out: an entity input's dataset was judged leaf by leaf, though search rules elsewhere are
// judged whole, so an `or` of a title and its identifier was flagged on both leaves.
describe("an action user input's dataset judged whole, as search rules are", () => {
  const DATASET = 'trigger.userInputs.properties.target.dataset';
  const offered = (dataset: JsonObject) =>
    analyze(
      buildCatalog(
        org({
          blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
          entities: { service: SERVICES_PER_TEAM },
          actions: [
            {
              identifier: 'deploy',
              title: 'Deploy',
              trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { target: { type: 'string', format: 'entity', blueprint: 'service', dataset } } } },
              invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
            },
          ],
        }),
        { jq },
      ),
    );
  const leaves = (report: ReturnType<typeof offered>, list: 'findings' | 'verified') => (report[list] ?? []).filter((f) => f.location.startsWith(`${DATASET}.rules[`));

  it('an `or` of a team title and its identifier keeps offering the same entities: both leaves verified', () => {
    const report = offered({ combinator: 'or', rules: [title, identifier] });
    expect(leaves(report, 'findings').map((f) => f.location)).toEqual([]);
    expect(leaves(report, 'verified').map((f) => f.location)).toEqual([`${DATASET}.rules[0]`, `${DATASET}.rules[1]`]);
  });

  it('an `or` of two titles still breaks on both leaves', () => {
    const report = offered({ combinator: 'or', rules: [title, { property: '$team', operator: 'containsAny', value: ['QA'] }] });
    expect(leaves(report, 'findings').map((f) => f.verdict)).toEqual(['breaks', 'breaks']);
  });

  it('an `and` of a title and its identifier offers nobody before or after: for review', () => {
    const report = offered({ combinator: 'and', rules: [title, identifier] });
    expect(leaves(report, 'findings').map((f) => f.verdict)).toEqual(['review', 'review']);
    expect(leaves(report, 'findings')[0]?.reason).toContain('matches no entity before the migration nor after it');
  });
});

/**
 * Held out: a dataset `or` whose title leaf sits in a nested `and` with a rule on another property
 * was flagged at the title leaf, though the tree as a whole offers the same entities before the
 * migration (first branch) and after it (second branch). Which entities the tree offers in each
 * world is computed here with jq over the org's own entities, the tree written as a jq filter.
 */
describe('a nested search rule tree judged whole, non-team rules included', () => {
  const DATASET = 'trigger.userInputs.properties.target.dataset';
  const byTitle = new Map<string, string>([['Data Science', 'data_science'], ['QA', 'qa'], ['Platform (EU)', 'platform'], ['Alpha', 'z_alpha'], ['Beta', 'a_beta']]);
  const worldEntities = (world: 'before' | 'after') => SERVICES_PER_TEAM.map((s) => ({ ...s, team: world === 'before' ? s.team : s.team.map((t) => byTitle.get(t)!) }));
  /** The entities a jq filter (the tree, as jq) lets through in a world. */
  const offeredBy = (filter: string, world: 'before' | 'after') => {
    const result = jq.evaluate(worldEntities(world), `[.[] | select(${filter}) | .identifier]`);
    if (!result.ok) throw new Error(result.error);
    return result.values[0];
  };
  const nested = (first: string, other: JsonObject) => ({
    combinator: 'or',
    rules: [{ combinator: 'and', rules: [{ property: '$team', operator: '=', value: first }, other] }, identifier],
  });
  const report = (dataset: JsonObject) =>
    analyze(
      buildCatalog(
        org({
          blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
          entities: { service: SERVICES_PER_TEAM },
          actions: [
            {
              identifier: 'create',
              title: 'Create',
              trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'service', userInputs: { properties: { target: { type: 'string', format: 'entity', blueprint: 'service', dataset } } } },
              invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
            },
          ],
        }),
        { jq },
      ),
    );
  const verdictAt = (r: ReturnType<typeof report>, location: string) => r.findings.find((f) => f.location === location)?.verdict ?? (r.verified?.some((f) => f.location === location) ? 'unaffected' : undefined);

  it('`or(and($team = title, $identifier != "nothing"), $team = identifier)` offers the same entities in both worlds: unaffected', () => {
    const filter = '((.team | index("Data Science")) != null and .identifier != "nothing") or ((.team | index("data_science")) != null)';
    expect(offeredBy(filter, 'before')).toEqual(offeredBy(filter, 'after'));
    const r = report(nested('Data Science', { property: '$identifier', operator: '!=', value: 'nothing' }));
    expect(verdictAt(r, `${DATASET}.rules[0].rules[0]`)).toBe('unaffected');
    expect(verdictAt(r, `${DATASET}.rules[1]`)).toBe('unaffected');
  });

  it('`or(and($team = title, $identifier = "svc-9"), $team = identifier)`: the first branch offers nothing before, so the tree changes: breaks', () => {
    const filter = '((.team | index("Data Science")) != null and .identifier == "svc-9") or ((.team | index("data_science")) != null)';
    expect(offeredBy(filter, 'before')).not.toEqual(offeredBy(filter, 'after'));
    const r = report(nested('Data Science', { property: '$identifier', operator: '=', value: 'svc-9' }));
    expect(verdictAt(r, `${DATASET}.rules[0].rules[0]`)).toBe('breaks');
  });
});
