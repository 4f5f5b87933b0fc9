/**
 * Issue 21, item 4: a condition reading the email as well as teams is split into its teams part
 * (run per team list) and its email part (run only for those whose teams part flips). The access
 * it gives must be exactly what running the whole condition on every user in both worlds gives.
 */
import { describe, expect, it } from 'vitest';
import { splitCondition } from '../../src/access/split-condition.js';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedAccess, judged, org } from '../judge/two-worlds.js';

const jq = useJqEngine();

const readsTeams = (text: string) => text.includes('team');

describe('splitCondition', () => {
  it('splits a top-level or / and chain into the teams part and the rest', () => {
    expect(splitCondition('(.user.team | index("QA") != null) or (.user.email | endswith("@x.com"))', readsTeams)).toEqual({
      op: 'or',
      teams: '((.user.team | index("QA") != null)\n)',
      rest: '((.user.email | endswith("@x.com"))\n)',
    });
    expect(splitCondition('.user.email != "a@b" and (.user.team | length) > 0', readsTeams)?.op).toBe('and');
  });

  it('leaves alone what is not one chain, or has nothing to split', () => {
    for (const expression of ['.user.team | index("QA") or .user.email == "x"', '.user.email as $e | .user.team | index($e)', '.a or .b and .c', '.user.team or .user.team', '.user.email == "a" or .user.email == "b"', '(.user.team | length > 0), .user.email == "x"']) {
      expect(splitCondition(expression, readsTeams), expression).toBeUndefined();
    }
  });
});

const policy = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });

describe('access of split conditions equals running the whole condition per user', () => {
  for (const condition of [
    '(.user.team | index("QA") != null) or (.user.email | endswith("ana@example.com"))',
    '(.user.team | index("Alpha") != null) or (.user.email == "cy@example.com")',
    '(.user.team | index("Alpha") != null) and (.user.email != "ed@example.com")',
    '.user.email != "bo@example.com" and (.user.team | any(. == "z_alpha"))',
  ]) {
    it(condition, () => {
      const { report } = judged(jq, policy(condition), 'permissions.execute.policy.conditions[0]');
      const expected = expectedAccess(jq, 'policy', condition);
      expect(expected.loses.length + expected.gains.length, 'the row flips for someone').toBeGreaterThan(0);
      expect(accessAt(report, (c) => c.permission === 'execute')).toEqual(expected);
    });
  }
});
