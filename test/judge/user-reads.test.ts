/**
 * Issue 33: which parts of the user a condition reads, from the paths it uses, so people whose
 * inputs to it are equal share one evaluation. Whatever cannot be told reads everything; the
 * access this gives must be what running the whole condition on every user gives (the second
 * half runs each condition per user in both worlds, on the full user).
 */
import { describe, expect, it } from 'vitest';
import { userFieldsRead } from '../../src/judge/user-reads.js';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedAccess, judged, org } from './two-worlds.js';

const reads = (expression: string) => {
  const result = userFieldsRead(expression);
  return result.kind === 'everything' ? 'everything' : [...result.fields].sort().join(',');
};

describe('userFieldsRead', () => {
  it('names the fields a condition reads through paths from the context', () => {
    const cases: [string, string][] = [
      ['.user.team | index("QA") != null', 'teams'],
      ['[.user.teams[].name] | index("QA")', 'teams'],
      ['any(.user.teams[]; .name == "QA")', 'teams'],
      ['.trigger.by.user.teamsIdentifiers | length > 0', 'teams'],
      ['.trigger.user.email | endswith("@x.com")', 'email'],
      ['(.user.team | index("QA") != null) or (.user.email | endswith("@x.com"))', 'email,teams'],
      ['(.user.roles | index("Admin")) == null and .user["email"] != "bob@example.com"', 'email,roles'],
      ['select(.user.team | length > 0) | .user.email | test("a")', 'email,teams'],
      ['if .user.team == [] then false else (.user.team | map(ascii_downcase) | index("qa")) != null end', 'teams'],
      ['{t: .user.team} | .t | index("QA")', 'teams'],
      ['.user.team | . as $t | $t | reduce .[] as $x (0; . + 1) > 1', 'teams'],
      ['"\\(.user.email)" | ascii_downcase | startswith("a")', 'email'],
      ['.user.team[0:1] | index("QA")', 'teams'],
      ['.user.firstName == "Ana"', ''],
      ['$ENV.HOME != null and true', ''],
      // Issue 39, one walker with team reach: a variable holds what it is bound to, and a comparison with null reads nothing.
      ['.user.team as $t | .user.email', 'email,teams'],
      ['.user.email as $e | .user.team | index($e) != null', 'email,teams'],
      ['.user != null and (.user.roles | length) > 0', 'roles'],
    ];
    for (const [expression, fields] of cases) expect(reads(expression), expression).toBe(fields);
  });

  it('says everything when the context itself is read, or when it cannot tell', () => {
    for (const expression of [
      '(.user | length) > 3',
      '.user | keys | index("email")',
      '[.[][][]?] | index("QA") != null',
      '.. | strings | select(. == "QA")',
      'tostring | contains("QA")',
      '.trigger.by | .user.email',
      '.trigger.user | .email',
      '. as $c | $c.user.email',
      '.user as $u | $u | tostring',
      '.user as {team: $t} | $t',
      'def f: .user.email; f',
      'reduce .user.team[] as $t (0; . + 1) > 0',
      'getpath(["user", "email"]) != null',
      '{user} | .user.email',
      '[select(true)] | .[0].user.email',
      '{a: select(true)} | .a.user.email',
      'try error(.) catch .user.email',
      'select(true) == {}',
      '"\\(.user)" | contains("QA")',
      '.user.team |= . + ["QA"] | .user.team | length',
      'to_entries | length',
      '.[0:1] | length',
      '.user.team | index("QA"',
    ]) {
      expect(reads(expression), expression).toBe('everything');
    }
  });
});

const jq = useJqEngine();

const policy = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });

describe('access of conditions whose reads a text search misjudged equals running them per user', () => {
  for (const condition of [
    // Reads the whole user: without the email it has three keys, not four.
    '(.user | length) > 3 and (.user.team | index("QA") != null)',
    // The part without `team` in its text reads team values through `.[][][]`, so it is no email-only part.
    '(.user.team | index("Alpha") != null) or (([.[][][]?] | index("Alpha") != null) and .user.email != "")',
    // Only teams are read: users of equal teams share one run.
    '.user.team | index("Platform (EU)") != null or index("QA") != null',
  ]) {
    it(condition, () => {
      const { report } = judged(jq, policy(condition), 'permissions.execute.policy.conditions[0]');
      const expected = expectedAccess(jq, 'policy', condition);
      expect(expected.loses.length + expected.gains.length, 'the row flips for someone').toBeGreaterThan(0);
      expect(accessAt(report, (c) => c.permission === 'execute')).toEqual(expected);
    });
  }
});

describe('email parts shared between sites', () => {
  // Three sites, each `<team part> or <email part>`, two sharing one email part.
  const conditions = [
    '(.user.team | index("Alpha") != null) or (.user.email | endswith("cy@example.com"))',
    '(.user.team | index("QA") != null) or (.user.email | endswith("cy@example.com"))',
    '(.user.team | index("Platform (EU)") != null) or (.user.email == "ed@example.com")',
  ];
  const snapshot = () =>
    org({
      actions: conditions.map((_, i) => ({ identifier: `a${i}`, title: `A${i}`, trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } })),
      actionPermissions: Object.fromEntries(conditions.map((condition, i) => [`a${i}`, { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } } }])),
    });
  const expectedAll = () => conditions.map((condition) => expectedAccess(jq, 'policy', condition));
  const accessOf = (report: ReturnType<typeof judged>['report']) => conditions.map((_, i) => accessAt(report, (c) => c.resource.identifier === `a${i}` && c.permission === 'execute'));

  it('a request of several email parts that gets no answer is asked again in halves, never as whole conditions per user', () => {
    const asked: string[] = [];
    // A loaded machine: every request holding more than one email part passes its time limit.
    const engine = {
      ...jq,
      evaluateEach: (calls: readonly { input: unknown; expression: string }[]) =>
        calls.map((call) => {
          asked.push(call.expression);
          return call.expression.includes('(.[1] | map(') ? { ok: false as const, error: 'no result within 1000 ms', failure: 'timeout' as const } : jq.evaluate(call.input as never, call.expression);
        }),
    };
    const { report } = judged(engine, snapshot(), 'permissions.execute.policy.conditions[0]');
    expect(accessOf(report)).toEqual(expectedAll());
    expect(asked.some((expression) => expression.includes('(.[1] | map('))).toBe(true);
    // The whole condition never ran: only its parts.
    for (const condition of conditions) expect(asked.filter((expression) => expression.includes(condition))).toEqual([]);
  });
});
