/**
 * Issue 29, class 3: one user model per world. Before the migration `.user.team` holds titles,
 * after it identifiers; `.user.teams` are `{name, provider}` objects whose names are titles in
 * both; `.user.teamsIdentifiers` follows `$team`. The judge's contexts and access's jq build the
 * same user, and gates read through it name exactly who gains and loses (computed by running each
 * condition on every user in both worlds).
 */
import { describe, expect, it } from 'vitest';
import { compactUser, USER_MODEL_JQ, userInWorld } from '../../src/judge/user-model.js';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedAccess, expectedClass, expectedGateVerdict, judged, org, type Row } from './two-worlds.js';

const jq = useJqEngine();

const ROWS: Row[] = [
  { name: 'names mapped from the objects: titles in both worlds', expression: '.user.teams | map(.name) | index("QA") != null', shows: 'same' },
  { name: 'team values: titles before, identifiers after', expression: '.user.team | index("QA") != null', shows: 'changed' },
  { name: 'teamsIdentifiers follows $team', expression: '.user.teamsIdentifiers | index("QA") != null', shows: 'changed' },
  { name: 'the run\'s user is the same person', expression: '.trigger.user.team | index("Data Science") != null', shows: 'changed' },
  { name: 'the provider of each team is the same in both worlds', expression: '[.user.teams[].provider] | length > 0', shows: 'same' },
  { name: 'names tested with any(): titles in both worlds', expression: 'any(.user.teams[]; .name == "Data Science")', shows: 'same' },
  { name: 'team values tested with contains: titles only before', expression: '.user.team | contains(["QA"])', shows: 'changed' },
  { name: 'team values checked with IN', expression: 'any(.user.team[]; IN("QA", "Beta"))', shows: 'changed' },
  { name: 'team values by a prefix of one title only', expression: '.user.team | map(select(startswith("Q"))) | length > 0', shows: 'changed' },
  { name: 'team values by a case-blind regex', expression: 'any(.user.team[]; test("^qa$"; "i"))', shows: 'same' },
];

const snapshot = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });

describe('the user in each world: (expression, teams, users) → (class, verdict, gains/losses)', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      // The harness's policy context has no run: the condition is read as the run's user there too.
      const expression = row.expression.replace('.trigger.user', '.user');
      const klass = expectedClass(jq, 'policy', expression);
      expect(klass, 'the row shows what it says').toBe(row.shows);
      const { finding, report } = judged(jq, snapshot(row.expression), 'permissions.execute.policy.conditions[0]');
      expect(finding.verdict).toBe(expectedGateVerdict(jq, 'policy', expression, klass));
      expect(accessAt(report, (c) => c.permission === 'execute')).toEqual(expectedAccess(jq, 'policy', expression));
    });
  }
});

describe('one model, two builders', () => {
  it('the jq access runs builds exactly the user the judge builds, in both worlds', () => {
    const teams = [
      { title: 'Data Science', identifier: 'data_science' },
      { title: 'QA', identifier: 'qa' },
    ];
    for (const world of ['before', 'after'] as const) {
      const built = userInWorld(teams, world, { email: 'ana@example.com', roles: ['Member'] });
      const values = teams.map((t) => (world === 'before' ? t.title : t.identifier));
      const result = jq.evaluate(compactUser(values, teams.map((t) => t.title), 'ana@example.com', ['Member']), `${USER_MODEL_JQ} | .user`);
      expect(result).toEqual({ ok: true, values: [built] });
    }
  });
});
