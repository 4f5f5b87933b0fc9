/**
 * Issue 21: no verdict is decided by how an expression is spelled. With a jq engine whose answers
 * ignore the literals (it answers the same on every context, or follows only the context's
 * teams), the verdict must follow the answers: a title or identifier literal that decided on its
 * own (the old "already compares identifiers" or "uses a title, breaks") fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { judged, org } from './two-worlds.js';

let real: JqEngine;
beforeAll(async () => {
  real = await loadJqEngine();
});
afterAll(async () => {
  await real.close?.();
});

/** Compiles as jq does, but answers every run with `answer(input)`. */
const answering = (answer: (input: string) => boolean): JqEngine => ({
  validate: (expression) => real.validate(expression),
  evaluate: (input) => ({ ok: true, values: [answer(JSON.stringify(input))] }),
});

const policy = (condition: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } }, approve: { roles: [], users: [], teams: [] } } },
  });
const LOCATION = 'permissions.execute.policy.conditions[0]';

const LITERALS = [
  ['a title', '.user.team | index("Data Science") != null'],
  ['an identifier', '.user.team | any(. == "data_science")'],
  ['a title and an identifier', '.user.team | index("QA") or index("data_science")'],
  ['a title spelling', '.user.team | map(ascii_downcase) | index("data science")'],
] as const;

describe('the verdict follows running, never the literals', () => {
  for (const [what, expression] of LITERALS) {
    it(`${what}: the same answer on every context is unaffected`, () => {
      const { finding } = judged(answering(() => true), policy(expression), LOCATION);
      expect(finding.verdict).toBe('unaffected');
    });
    it(`${what}: an answer that changes with the teams breaks`, () => {
      // True exactly where the teams are titles: the answer changes with the migration.
      const { finding } = judged(answering((input) => input.includes('Data Science') && !input.includes('data_science')), policy(expression), LOCATION);
      expect(finding.verdict).toBe('breaks');
    });
  }

  it('a $team rule is matched, whatever its values look like: a title next to its identifier matches the same entities', () => {
    const rule = { property: '$team', operator: 'in', value: ['QA', 'qa'] };
    const snapshot = org({
      actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
      actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: { q: { combinator: 'and', rules: [rule] } }, conditions: [] } }, approve: { roles: [], users: [], teams: [] } } },
    });
    const { finding } = judged(real, snapshot, 'permissions.execute.policy.queries.q.rules[0]');
    expect(finding.verdict).toBe('unaffected');
  });
});
