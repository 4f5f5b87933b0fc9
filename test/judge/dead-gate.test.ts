/**
 * Issue 29, dead gates (beyond the migration): a condition that lets nobody through, or errors for
 * everybody, before the migration and after it, is reported on its own as already broken, with the
 * people it shuts out, and never as a migration change (no access change, verdict `review`, not
 * `breaks`). Who passes is computed here by running each condition on every user in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedGateVerdict, judged, judgeTable, org, passing, USERS } from './two-worlds.js';

const jq = useJqEngine();

const ROWS: { name: string; expression: string }[] = [
  { name: 'contains on the {name, provider} objects: an error for everybody with a team, false for the rest', expression: '.user.teams | contains(["QA"])' },
  { name: 'index of a string among objects', expression: '.user.teams | index("QA") != null' },
  { name: 'an object compared with a string', expression: 'any(.user.teams[]; . == "QA")' },
  { name: 'startswith on objects', expression: '.user.teams | any(startswith("Q"))' },
  { name: 'the names, compared right (the control: not dead)', expression: '[.user.teams[].name] | index("QA") != null' },
  { name: 'a dead part or an email (the control: not dead)', expression: '(.user.teams | index("QA") != null) or .user.email == "di@example.com"' },
  { name: 'the first team object compared with a string', expression: '.user.teams[0] == "QA"' },
  { name: 'IN over the objects', expression: 'any(.user.teams[]; IN("QA", "Beta"))' },
  { name: 'inside on the objects (the control: an empty list is inside anything)', expression: '.user.teams | inside(["QA"])' },
  { name: 'names by map(.name) with contains (the control: not dead)', expression: '.user.teams | map(.name) | contains(["QA"])' },
];

const snapshot = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });

const LOCATION = 'permissions.execute.policy.conditions[0]';

const visibleOf = (condition: string, key: 'visible' | 'required' = 'visible') =>
  org({
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { reason: { type: 'string', [key]: { jqQuery: condition } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

judgeTable('dead gates: (condition, teams, users) → (class, verdict, shut out, no access change)', {
  jq,
  kind: 'policy',
  // A dead gate is the same in both worlds: each row shows `same`.
  rows: ROWS.map((row) => ({ ...row, shows: 'same' as const })),
  snapshot: (row) => snapshot(row.expression),
  location: LOCATION,
  verdict: (klass, row) => expectedGateVerdict(jq, 'policy', row.expression, klass),
  check: ({ row, finding, report }) => {
    expect(accessAt(report, (c) => c.permission === 'execute')).toEqual({ loses: [], gains: [] });
    const dead = passing(jq, 'policy', row.expression, 'before').length === 0 && passing(jq, 'policy', row.expression, 'after').length === 0;
    if (!dead) {
      expect(finding.deadGate).toBeUndefined();
      return;
    }
    expect(finding.deadGate?.shutOut).toEqual(USERS.map((u) => u.email).sort());
    expect(finding.reason).toContain('lets nobody through');
    expect(finding.suggestion).toContain('Not a migration change');
  },
});

describe('dead gates beyond a policy condition', () => {
  it('the same gates as an input\'s visible: who may see it, computed on every user in both worlds', () => {
    for (const row of ROWS) {
      const dead = passing(jq, 'user-input', row.expression, 'before').length === 0 && passing(jq, 'user-input', row.expression, 'after').length === 0;
      const { finding } = judged(jq, visibleOf(row.expression), 'trigger.userInputs.properties.reason.visible.jqQuery');
      expect(finding.verdict, row.expression).toBe(dead ? 'review' : 'unaffected');
      expect(finding.deadGate !== undefined, row.expression).toBe(dead);
    }
  });

  it('an input\'s required that never holds shuts nobody out: no dead gate', () => {
    const { finding } = judged(jq, visibleOf('.user.teams | contains(["QA"])', 'required'), 'trigger.userInputs.properties.reason.required.jqQuery');
    expect(finding.deadGate).toBeUndefined();
  });

  it('an admin passes a policy anyway, so is not among those shut out', () => {
    const withAdmin = snapshot('.user.teams | index("QA") != null');
    withAdmin.users = [...USERS, { email: 'root@example.com', teams: [], roles: [{ name: 'Admin' }] }];
    const { finding } = judged(jq, withAdmin, LOCATION);
    expect(finding.deadGate?.shutOut).toEqual(USERS.map((u) => u.email).sort());
  });

  it('all errors: said as an error for everybody', () => {
    const { finding } = judged(jq, snapshot('.user.teams[] | startswith("Q")'), LOCATION);
    // Users without teams give no output, so not every context errors: it matches nobody.
    expect(['matches-nobody', 'errors-for-everybody']).toContain(finding.deadGate?.outcome);
    const { finding: always } = judged(jq, snapshot('.user.teams | error("no") | . == "QA"'), LOCATION);
    expect(always.deadGate?.outcome).toBe('errors-for-everybody');
  });
});
