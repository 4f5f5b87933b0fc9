/**
 * Issue 39, item 7: after the migration (the main use), relations to `_team` (their values are
 * team identifiers), mirrors of their `$identifier` and the user's `_team` entities are team
 * values wherever they are read: the property or the value of a scorecard condition or a widget
 * filter, `relatedTo` the `_team` blueprint, a calculation's jq. A literal is judged against the
 * org's teams of today by what the rule or expression does with it (a prefix, a case fold, a
 * regex), not by equality: one no team meets matches nothing now (`no-team-holds`, breaks); one a
 * team meets works today. Every expected answer is computed by running jq over the org's teams.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedRuleClass, judgeTable, teamRelatedServices, TEAMS, type Row } from './two-worlds.js';

const jq = useJqEngine();
const GHOST = 'is no team of the org today';

/** A migrated org: services own their team through `$team` and relate to it over `owning_team`. */
const migratedOrg = (parts: { calculation?: string; condition?: JsonObject; widgetRule?: JsonObject }, migrated = true): OrgSnapshot =>
  teamRelatedServices({
    relation: { name: 'owning_team', title: 'Owning team', many: true, relatesTo: 'own' },
    mirrors: { owner_ids: ['Owner ids', 'owning_team.$identifier'], team_ids: ['Team ids', '$team.$identifier'], owner_titles: ['Owner titles', 'owning_team.$title'] },
    ...(parts.calculation !== undefined && { calculation: ['flag', 'Flag', parts.calculation] as const }),
    migrated,
    parts: {
      ...(parts.condition && { scorecards: [{ identifier: 'sc', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'owned', title: 'Owned', level: 'Gold', query: { combinator: 'and', conditions: [parts.condition] } }] }] }),
      ...(parts.widgetRule && {
        pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [parts.widgetRule] } } } } }] }],
      }),
    },
  });

/**
 * Whether a jq expression over the entity's relation selects no team of today's org: run on an
 * entity of each team (identifiers, as the migrated org holds them), it gives what it gives on an
 * entity of none.
 */
function selectsNoTeamToday(expression: string): boolean {
  const run = (owners: string[]) => JSON.stringify(jq.evaluate({ identifier: 'e', team: owners, properties: { owner_ids: owners, team_ids: owners }, relations: { owning_team: owners } }, expression));
  const none = run([]);
  return TEAMS.every((team) => run([team.identifier]) === none);
}

/** Whether a rule's literal meets no team of today's org, by matching the rule in jq on an entity of each team (its identifier, or its title) and of none. */
function ruleMeetsNoTeamToday(operator: string, literal: string, held: 'identifier' | 'name' = 'identifier'): boolean {
  const none = expectedRuleClass.match(jq, operator, ['\u0000none'], [literal]);
  return TEAMS.every((team) => expectedRuleClass.match(jq, operator, [team[held]], [literal]) === none);
}

// A calculation over the kept relation: judged against the org's identifiers by what it does.
const CALCULATIONS: Row[] = [
  { name: 'a prefix no identifier has', expression: '.relations.owning_team | any(startswith("pay"))' },
  { name: 'a prefix an identifier has', expression: '.relations.owning_team | any(startswith("plat"))' },
  { name: 'a regex no identifier meets', expression: '.relations.owning_team | any(test("^pay"))' },
  { name: 'a regex an identifier meets', expression: '.relations.owning_team | any(test("^data_"))' },
  { name: 'a case fold an identifier meets', expression: '.relations.owning_team | any(ascii_downcase == "qa")' },
  { name: 'a case fold no identifier meets', expression: '.relations.owning_team | any(ascii_downcase == "platform-eu")' },
  // Mirrors of the identifiers read in jq: the same identifiers.
  { name: 'a mirror of owning_team.$identifier equal to a near miss', expression: '.properties.owner_ids | any(. == "data-science")' },
  { name: 'a mirror of owning_team.$identifier equal to an identifier', expression: '.properties.owner_ids | index("data_science") != null' },
  { name: 'a mirror of $team.$identifier matched by a regex of none', expression: '.properties.team_ids | any(test("^pay"))' },
  { name: 'a mirror of $team.$identifier matched by a regex of one', expression: '.properties.team_ids | any(test("alpha$"))' },
];

judgeTable('a calculation over a relation to _team, in a migrated org', {
  jq,
  kind: 'entity',
  rows: CALCULATIONS,
  snapshot: (row) => migratedOrg({ calculation: row.expression }),
  location: 'calculationProperties.flag.calculation',
  verdict: (_, row) => (selectsNoTeamToday(row.expression) ? 'breaks' : 'unaffected'),
  check: ({ row, finding }) => expect(finding.reason.includes(GHOST)).toBe(selectsNoTeamToday(row.expression)),
});

// Rules whose side holds `_team` identifiers: the value is met by the operator, or matches nothing.
const RULES: { name: string; rule: JsonObject; operator: string; literal: string; held?: 'name' }[] = [
  { name: 'relation owning_team (to _team) = a near miss', rule: { property: 'owning_team', operator: '=', value: 'data-science' }, operator: '=', literal: 'data-science' },
  { name: 'relation owning_team (to _team) = an identifier', rule: { property: 'owning_team', operator: '=', value: 'data_science' }, operator: '=', literal: 'data_science' },
  { name: 'mirror of owning_team.$title = a misspelt title', rule: { property: 'owner_titles', operator: '=', value: 'Data Sciense' }, operator: '=', literal: 'Data Sciense', held: 'name' },
  { name: 'mirror of owning_team.$title begins with a title\'s start', rule: { property: 'owner_titles', operator: 'beginsWith', value: 'Platform' }, operator: 'beginsWith', literal: 'Platform', held: 'name' },
  { name: 'mirror of owning_team.$title = an identifier, which no title is', rule: { property: 'owner_titles', operator: '=', value: 'data_science' }, operator: '=', literal: 'data_science', held: 'name' },
  { name: 'mirror of owning_team.$identifier = a near miss', rule: { property: 'owner_ids', operator: '=', value: 'data-science' }, operator: '=', literal: 'data-science' },
  { name: 'mirror of owning_team.$identifier = an identifier', rule: { property: 'owner_ids', operator: '=', value: 'data_science' }, operator: '=', literal: 'data_science' },
  { name: 'mirror of owning_team.$identifier = a title', rule: { property: 'owner_ids', operator: '=', value: 'Data Science' }, operator: '=', literal: 'Data Science' },
  { name: 'mirror of $team.$identifier contains a part of none', rule: { property: 'team_ids', operator: 'contains', value: 'pay' }, operator: 'contains', literal: 'pay' },
  { name: 'mirror of $team.$identifier contains a part of one', rule: { property: 'team_ids', operator: 'contains', value: 'alph' }, operator: 'contains', literal: 'alph' },
  { name: 'mirror of $team.$identifier begins with a prefix of one', rule: { property: 'team_ids', operator: 'beginsWith', value: 'plat' }, operator: 'beginsWith', literal: 'plat' },
  { name: 'relatedTo _team a near miss', rule: { operator: 'relatedTo', blueprint: '_team', value: 'data-science' }, operator: 'in', literal: 'data-science' },
  { name: 'relatedTo _team an identifier', rule: { operator: 'relatedTo', blueprint: '_team', value: 'qa' }, operator: 'in', literal: 'qa' },
  { name: '$team begins with a prefix of an identifier', rule: { property: '$team', operator: 'beginsWith', value: 'plat' }, operator: 'beginsWith', literal: 'plat' },
  { name: '$team begins with a prefix of none', rule: { property: '$team', operator: 'beginsWith', value: 'pay' }, operator: 'beginsWith', literal: 'pay' },
];

describe('a rule on a value that holds _team identifiers, in a migrated org', () => {
  for (const { name, rule, operator, literal, held } of RULES) {
    for (const where of ['scorecard', 'widget'] as const) {
      it(`${name} (${where})`, () => {
        const report = analyze(buildCatalog(migratedOrg(where === 'scorecard' ? { condition: rule } : { widgetRule: rule }), { jq }));
        const location = where === 'scorecard' ? 'rules[0].query.conditions[0]' : 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]';
        const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === location);
        const ghost = ruleMeetsNoTeamToday(operator, literal, held);
        expect(finding?.reason.includes(GHOST) ?? false, 'said to match no team today').toBe(ghost);
        if (ghost) {
          expect(finding?.verdict).toBe('breaks');
          expect(finding?.suggestion).toMatch(/perhaps|no team of the org is spelled alike/);
        } else expect(finding?.verdict ?? 'unaffected', 'it works today').toBe('unaffected');
      });
    }
  }

  it('before the migration a mirror of identifiers is no finding: the migration changes nothing of it', () => {
    const report = analyze(buildCatalog(migratedOrg({ condition: { property: 'owner_ids', operator: '=', value: 'data-science' } }, false), { jq }));
    expect(report.findings.find((f) => f.location === 'rules[0].query.conditions[0]')).toBeUndefined();
  });
});

/** A migrated org whose deploy action's policy holds one query rule and one condition. */
const policyOrg = (rule: JsonObject, condition: string): OrgSnapshot => ({
  ...migratedOrg({}),
  actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: {}, required: [] } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com/hook' } }],
  actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: { mine: { rules: [{ property: '$blueprint', operator: '=', value: 'service' }, rule], combinator: 'and' } }, conditions: [condition] } } } },
});

/** Whether a condition over the user's team identifiers selects no team of today's org (jq on a user of each team and of none). */
function conditionSelectsNoTeamToday(condition: string): boolean {
  const run = (ids: string[]) => JSON.stringify(jq.evaluate({ user: { email: 'u@example.com', team: ids, teamsIdentifiers: ids, teams: [] }, results: { mine: { entities: [] } } }, condition));
  const none = run([]);
  return TEAMS.every((team) => run([team.identifier]) === none);
}

describe("a policy's query rules and conditions over the user's teams, in a migrated org", () => {
  const cases: { rule: JsonObject; operator: string; literal: string; condition: string }[] = [
    { rule: { property: { context: 'userTeams', property: '$identifier' }, operator: 'beginsWith', value: 'pay' }, operator: 'beginsWith', literal: 'pay', condition: '.user.teamsIdentifiers | any(startswith("pay"))' },
    { rule: { property: { context: 'userTeams', property: '$identifier' }, operator: 'beginsWith', value: 'qa' }, operator: 'beginsWith', literal: 'qa', condition: '.user.teamsIdentifiers | any(startswith("qa"))' },
    { rule: { property: { context: 'userTeams', property: '$identifier' }, operator: 'contains', value: 'science' }, operator: 'contains', literal: 'science', condition: '.user.team | any(test("^DATA"; "i"))' },
    { rule: { property: { context: 'userTeams', property: '$identifier' }, operator: '=', value: 'Data Science' }, operator: '=', literal: 'Data Science', condition: '.user.team | any(test("^pay"))' },
  ];
  for (const { rule, operator, literal, condition } of cases) {
    it(`${JSON.stringify(rule.property)} ${operator} ${JSON.stringify(literal)}, and ${condition}`, () => {
      const report = analyze(buildCatalog(policyOrg(rule, condition), { jq }));
      const all = [...report.findings, ...(report.verified ?? [])];
      const ruleFinding = all.find((f) => f.location.startsWith('permissions.execute.policy.queries.mine.rules[1]'));
      expect(ruleFinding?.reason.includes(GHOST) ?? false, 'the query rule matches no team today').toBe(ruleMeetsNoTeamToday(operator, literal));
      const conditionFinding = all.find((f) => f.location.startsWith('permissions.execute.policy.conditions[0]'));
      const ghost = conditionSelectsNoTeamToday(condition);
      expect(conditionFinding?.reason.includes(GHOST) ?? false, 'the condition matches no team today').toBe(ghost);
      if (ghost) expect(conditionFinding?.verdict).toBe('breaks');
    });
  }
});
