/**
 * Policy conditions (a gate): each row's class is computed by running it on both worlds here,
 * the verdict must be the contract's, and report.access must name exactly who loses and gains.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedAccess, expectedGateVerdict, judged, judgeTable, org, type Row } from './two-worlds.js';

const ROWS: Row[] = [
  { name: 'a title compared with .user.team', expression: '.user.team | index("Data Science") != null', shows: 'changed' },
  { name: 'an identifier written before the migration: people gain', expression: '.user.team | any(. == "data_science")', shows: 'changed' },
  { name: 'one literal an identifier, another a title spelling: the title side still loses', expression: '.user.team | map(ascii_upcase) | index("DATA SCIENCE") or index("QA")', shows: 'changed' },
  { name: 'contains on strings is a substring test (true today, false after)', expression: '.user.team | contains(["Data"])', shows: 'changed' },
  { name: 'contains on strings is a substring test (false today, true after)', expression: '.user.team | contains(["data"])', shows: 'changed' },
  { name: 'the documented [.user.teams[].name]: titles before and after', expression: '[.user.teams[].name] | index("QA") != null', shows: 'same' },
  { name: '.user.teamsIdentifiers compared with a title', expression: '.user.teamsIdentifiers | index("QA") != null', shows: 'changed' },
  { name: 'a dead title variant after ascii_downcase', expression: '.user.team | map(ascii_downcase) | index("data science") != null', shows: 'changed' },
  { name: 'startswith a title prefix', expression: '.user.team | any(startswith("Data "))', shows: 'changed' },
  { name: 'only how many teams', expression: '.user.team | length > 0', shows: 'same' },
  { name: 'a string that is no team of the org', expression: '.user.team | index("Nobody") != null', shows: 'same' },
];

const jq = useJqEngine();

const snapshot = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });

judgeTable('policy condition: (expression, teams, users) → (class, verdict, gains/losses)', {
  jq,
  kind: 'policy',
  rows: ROWS,
  snapshot: (row) => snapshot(row.expression),
  location: 'permissions.execute.policy.conditions[0]',
  verdict: (klass, row) => expectedGateVerdict(jq, 'policy', row.expression, klass),
  check: ({ row, klass, report }) => {
    const expected = expectedAccess(jq, 'policy', row.expression);
    expect(accessAt(report, (c) => c.resource.identifier === 'deploy' && c.permission === 'execute')).toEqual(expected);
    if (klass === 'same') expect(expected).toEqual({ loses: [], gains: [] });
  },
});

describe('policy condition written for identifiers', () => {

  it('an identifier written before the migration names who gains', () => {
    const { finding, report } = judged(jq, snapshot('.user.team | any(. == "data_science")'), 'permissions.execute.policy.conditions[0]');
    expect(finding.reason).toContain('starts giving true');
    expect(accessAt(report, (c) => c.permission === 'execute').gains).toEqual(['ana@example.com']);
  });
});

describe('impact.users on the finding', () => {
  it('counts who loses and gains, as report.access lists them', () => {
    const { finding, report } = judged(jq, snapshot('.user.team | index("QA") != null'), 'permissions.execute.policy.conditions[0]');
    const expected = expectedAccess(jq, 'policy', '.user.team | index("QA") != null');
    expect(expected.loses.length).toBeGreaterThan(0);
    expect(finding.impact?.users).toEqual({ loses: expected.loses.length, gains: expected.gains.length });
    expect(report.access?.find((c) => c.finding === finding.id)?.loses).toEqual(expected.loses);
  });
});
