/**
 * Issue 29, class 2: team-typed sinks. An input of `format: team`, or an entity input of `_team`,
 * holds teams: its `default` is a team value, judged as a set of teams (a value that stays a title
 * selects no team after the migration). A `_user` input holds a person whose `.team` is team
 * values. Expected classes are computed here by running the jq in both worlds.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, inputOf, judged, judgeTable, org, passing, TEAM_SETS, TEAMS, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();

const action = (inputs: Record<string, JsonObject>) =>
  org({
    actions: [
      {
        identifier: 'assign',
        title: 'Assign',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: inputs } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

interface DefaultRow {
  name: string;
  input: JsonObject;
  expression: string;
  shows: ExpectedClass;
}

const DEFAULTS: DefaultRow[] = [
  { name: 'format team: the user\'s first team', input: { type: 'string', format: 'team' }, expression: '.user.team[0]', shows: 'substituted' },
  { name: 'format team: the user\'s first team NAME selects no team afterwards', input: { type: 'string', format: 'team' }, expression: '.user.teams[0].name', shows: 'changed' },
  { name: 'a list of teams: the user\'s teams', input: { type: 'array', items: { type: 'string', format: 'team' } }, expression: '.user.team', shows: 'substituted' },
  { name: 'a list of teams: the names', input: { type: 'array', items: { type: 'string', format: 'team' } }, expression: '[.user.teams[].name]', shows: 'changed' },
  { name: 'a list of teams, sorted: the same set', input: { type: 'array', items: { type: 'string', format: 'team' } }, expression: '.user.team | sort', shows: 'substituted' },
  { name: '_team entity input: a title literal', input: { type: 'string', format: 'entity', blueprint: '_team' }, expression: '"QA"', shows: 'changed' },
  { name: 'a list of teams: the names by map(.name)', input: { type: 'array', items: { type: 'string', format: 'team' } }, expression: '.user.teams | map(.name)', shows: 'changed' },
  { name: '_team entity input: the user\'s first team', input: { type: 'string', format: 'entity', blueprint: '_team' }, expression: '.user.team[0]', shows: 'substituted' },
  { name: 'a list of _team entities: the names', input: { type: 'array', items: { type: 'string', format: 'entity', blueprint: '_team' } }, expression: '[.user.teams[].name]', shows: 'changed' },
  { name: 'format team: the entity\'s last team', input: { type: 'string', format: 'team' }, expression: '.entity.team | last', shows: 'substituted' },
];

judgeTable('a team-typed input\'s default: (input, expression, teams) → (class, verdict)', {
  jq,
  kind: 'user-input',
  rows: DEFAULTS,
  teamValue: true,
  snapshot: (row) => action({ owner: { ...row.input, default: { jqQuery: row.expression } } }),
  location: 'trigger.userInputs.properties.owner.default.jqQuery',
  verdict: (klass) => expectedVerdict(klass, 'team-value'),
});

describe('a default that is no team value', () => {

  it('the same default on a plain string input is a value people read: a review, not a break', () => {
    const klass = expectedClass(jq, 'user-input', '.user.team[0]');
    expect(klass).toBe('substituted');
    const { finding } = judged(jq, action({ note: { type: 'string', default: { jqQuery: '.user.team[0]' } } }), 'trigger.userInputs.properties.note.default.jqQuery');
    expect(finding.verdict).toBe(expectedVerdict(klass, 'shown'));
  });

  it('a literal title as a team input\'s default breaks, with the identifier as rewrite', () => {
    const { finding } = judged(jq, action({ owner: { type: 'string', format: 'team', default: 'Data Science' } }), 'trigger.userInputs.properties.owner.default');
    expect(finding.verdict).toBe('breaks');
    expect(finding.rewrite).toBe(TEAMS[0]!.identifier);
  });
});

describe('a team picker\'s dataset searches the org\'s teams', () => {
  const ROWS = [
    { name: 'by $identifier, the user\'s team values', property: '$identifier', expression: '.user.team' },
    { name: 'by $identifier, the user\'s team names', property: '$identifier', expression: '[.user.teams[].name]' },
    { name: 'by $title, the user\'s team names', property: '$title', expression: '[.user.teams[].name]' },
  ] as const;
  for (const row of ROWS) {
    it(row.name, () => {
      // Run after the migration for every user with teams: does it offer one of the user's teams?
      const offers = TEAM_SETS.filter((set) => set.length > 0).every((set) => {
        const result = jq.evaluate(inputOf('user-input', set, 'after'), row.expression);
        const values = result.ok ? result.values.flat() : [];
        return TEAMS.some((t) => values.includes(row.property === '$title' ? t.name : t.identifier));
      });
      const { finding } = judged(
        jq,
        action({ owner: { type: 'string', format: 'team', dataset: { combinator: 'and', rules: [{ property: row.property, operator: 'in', value: { jqQuery: row.expression } }] } } }),
        'trigger.userInputs.properties.owner.dataset.rules[0]',
      );
      expect(finding.verdict).toBe(offers ? 'unaffected' : 'breaks');
    });
  }
});

describe('jq of the form that reads a team-typed input reads team values', () => {
  const VISIBLE = '.form.owner == "QA"';
  it('visible when the picked team is a title: changed, and who loses it is who picks QA', () => {
    // The picked team is a team value: a title before the migration and an identifier after it.
    const before = jq.evaluate({ form: { owner: 'QA' } }, VISIBLE);
    const after = jq.evaluate({ form: { owner: TEAMS[1]!.identifier } }, VISIBLE);
    expect(before).not.toEqual(after);
    const { finding } = judged(jq, action({ owner: { type: 'string', format: 'team' }, reason: { type: 'string', visible: { jqQuery: VISIBLE } } }), 'trigger.userInputs.properties.reason.visible.jqQuery');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('.form.owner');
  });

  it('a _user input\'s .team holds team values', () => {
    const expression = '.form.approver.team | index("QA") != null';
    const before = jq.evaluate({ form: { approver: { identifier: 'bo@example.com', team: ['QA'] } } }, expression);
    const after = jq.evaluate({ form: { approver: { identifier: 'bo@example.com', team: ['qa'] } } }, expression);
    expect(before).not.toEqual(after);
    const { finding } = judged(jq, action({ approver: { type: 'string', format: 'entity', blueprint: '_user' }, reason: { type: 'string', visible: { jqQuery: expression } } }), 'trigger.userInputs.properties.reason.visible.jqQuery');
    expect(finding.verdict).toBe('breaks');
  });

  it('the people who see an input gated on the user\'s own team names keep seeing it', () => {
    const gate = '[.user.teams[].name] | index("QA") != null';
    expect(passing(jq, 'user-input', gate, 'before')).toEqual(passing(jq, 'user-input', gate, 'after'));
  });
});
