/**
 * Issue 41, item 2: conditions of the common shapes are answered in JavaScript, and jq stays the
 * reference. Every shape below runs both ways on every context; wherever the fast path answers,
 * its answer must be jq's, and the shapes access meets most must be answered (not left to jq).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileFastCheck, fastOutcomes, userContextObject } from '../../src/access/fast-conditions.js';
import { userConditionOutcomes } from '../../src/access/condition-answers.js';
import { checkKey, conditionOutcomes, type ConditionCheck } from '../../src/jq/condition-outcomes.js';
import { USER_CONTEXT } from '../../src/judge/user-contexts.js';
import { compactUser } from '../../src/judge/user-model.js';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

/** People as access sends them: [team values, email | null, roles | null, names]. */
const COMPACT: JsonValue[] = [
  compactUser([], [], null, null),
  compactUser(['Platform'], ['Platform'], 'a1@example.com', ['Member']),
  compactUser(['platform'], ['Platform'], 'B2@Example.com', ['Admin']),
  compactUser(['Platform Ops', 'QA'], ['Platform Ops', 'QA'], 'c3@example.com', []),
  compactUser(['QA', 'QA'], ['QA', 'QA'], null, ['Member', 'Admin']),
  compactUser(['Ünïcode', '😀 team', 'Say "hi"'], ['Ünïcode', '😀 team', 'Say "hi"'], 'd4@example.org', null),
  compactUser(['team_001', 'team_002'], ['Team 1', 'Team 2'], 'e999@example.com', ['Member']),
  compactUser(['<identifier of QA, not known yet>'], ['QA'], 'f@example.com', []),
];

/** Contexts no person gives, to hold the evaluator to jq on inputs it may meet in no org. */
const TRICKY: JsonValue[] = [
  { user: { team: null, teams: null, email: null } },
  { user: { team: 'Platform', teams: [{ name: 'Platform' }], email: 42 } },
  { user: { team: ['Platform', null, 3, ['QA'], { name: 'QA' }], teams: [{ name: null }, 'QA'] } },
  { user: {} },
  {},
  { user: { team: [], teams: [], teamsIdentifiers: ['a'], roles: [{ name: 'Admin' }, {}] } },
  { user: { team: [true, false], email: '' } },
];

const SHAPES: string[] = [
  // the bench's, and their parts as the email split cuts them
  '.user.team | (index("Platform") != null) or (index("QA") != null and index("team_001") == null)',
  '(.user.team | index("QA") != null) or (.user.email | endswith("999@example.com"))',
  '((.user.team | index("QA") != null)\n)',
  '((.user.email | endswith("999@example.com"))\n)',
  '.user.team | index("Platform") != null',
  '.user.team | index("Platform") == null',
  '.user.team | index("QA")',
  '.user.team | index("QA") | . != null',
  '.user.team | index("Platform") // false',
  '.user.team | index(["QA"])',
  '.user.team | index(null)',
  '.user.team | index(1)',
  '.user.team | contains(["Platform"])',
  '.user.team | contains(["Plat"])',
  '.user.team | contains(["Platform", "QA"])',
  '.user.team | contains([])',
  '.user.team | contains("QA")',
  '.user.team | inside(["Platform", "QA", "Platform Ops"])',
  '.user.teamsIdentifiers | contains(["team_001"])',
  '.trigger.by.user.team | index("QA") != null',
  '.trigger.user.team | contains(["QA"])',
  'any(.user.team[]; . == "QA")',
  'all(.user.team[]; . == "QA")',
  '.user.team | any(. == "QA")',
  '.user.team | all(. == "QA")',
  '.user.team | map(. == "QA") | any',
  '.user.team | map(. == "QA") | all',
  '.user.team | map(ascii_downcase) | index("platform") != null',
  '.user.team | map(ascii_upcase) | contains(["QA"])',
  '.user.team[] | . == "QA"',
  '.user.team[] == "QA"',
  '.user.team[] | select(. == "QA")',
  '.user.team | first(.[] | select(startswith("Plat")))',
  '.user.team | first == "QA"',
  '.user.team | IN(["QA"])',
  '.user.team[] | IN("QA", "Platform")',
  '.user.team | contains(["QA"]), contains(["Platform"])',
  '[.user.team[], "x"] | length == 2',
  '.user.team | (index("QA"), index("Platform")) != null',
  '.user.team[] | IN("QA")',
  '(.user.team | length) == 0',
  '.user.team | length == 1',
  '.user.team == ["QA"]',
  '.user.team != []',
  '.user.team | not',
  '.user.team | type == "array"',
  '.user.team | empty',
  '[.user.teams[].name] | index("QA") != null',
  '.user.teams | map(.name) | contains(["Platform"])',
  '.user.teams | any(.name == "QA")',
  '.user.teams[].name == "Team 1"',
  '.user.email | endswith("@example.com")',
  '.user.email | ascii_downcase | startswith("b2")',
  '.user.email == "a1@example.com" or (.user.team | contains(["QA"]))',
  '.user.email != null and (.user.team | index("QA") == null)',
  '.user.roles | any(.name == "Admin")',
  '.user.roles // [] | length == 0',
  '.user.missing | index("QA")',
  '.user.missing | contains(["QA"])',
  '.user.missing.deeper == null',
  '.user.team | true and false or null',
  '.user.team | ("a" == "a") and (1 == 1.0)',
  // not claimed: each goes to jq whole
  '.user.team | test("^Plat")',
  '.user.team | index("QA") > 0',
  '.user.team as $t | $t | length',
  'if .user.team then true else false end',
  '.user.team | .[0] == "QA"',
  '.user.team | (index("QA"), index("Platform")) != null',
  '.user.team | 1 == 1 == true',
  '{a: 1} | .a == 1',
  '.user.team | 100000000000000000001 == 100000000000000000000',
];

/** Shapes the fast path must answer on every person jq answers without an error (else access would fall back to jq for them). */
const CLAIMED_ON_PEOPLE = [
  '.user.team | (index("Platform") != null) or (index("QA") != null and index("team_001") == null)',
  '((.user.team | index("QA") != null)\n)',
  '((.user.email | endswith("999@example.com"))\n)',
  '.user.team | contains(["Platform", "QA"])',
  'any(.user.team[]; . == "QA")',
  '[.user.teams[].name] | index("QA") != null',
  '.user.email == "a1@example.com" or (.user.team | contains(["QA"]))',
];

const NOT_CLAIMED = ['.user.team | test("^Plat")', '.user.team | index("QA") > 0', 'if .user.team then true else false end', '.user.team | 1 == 1 == true', '.user.team | 100000000000000000001 == 100000000000000000000'];

/** Per check and input: jq's outcome character and the fast path's (undefined where it gives up). */
function bothWays(checks: readonly ConditionCheck[], inputs: readonly JsonValue[], prelude: string, toContext: (input: JsonValue) => JsonValue) {
  const reference = conditionOutcomes(jq, checks, inputs, prelude);
  return checks.map((check) => {
    const answer = reference.get(checkKey(check))!;
    const fast = compileFastCheck(check);
    return {
      check,
      jq: inputs.map((_, i) => (answer.ok ? answer.outcomes[i]! : `!${answer.error}`)),
      fast: inputs.map((input) => fast?.(toContext(input))),
    };
  });
}

describe('conditions answered without jq', () => {
  it('builds the context jq builds from a compact person', () => {
    for (const compact of COMPACT) {
      const fromJq = jq.evaluate(compact, USER_CONTEXT);
      expect(fromJq.ok && fromJq.values).toEqual([userContextObject(compact)]);
    }
  });

  it('gives jq’s outcome on people wherever it answers, and answers the common shapes', () => {
    const checks = [...SHAPES.map((expression) => ({ expression })), { expression: '[.user.team[] | ascii_downcase]', lists: 'qa' }, { expression: '.user.team', lists: 'QA' }];
    let answered = 0;
    for (const { check, jq: reference, fast } of bothWays(checks, COMPACT, USER_CONTEXT, userContextObject)) {
      fast.forEach((outcome, i) => {
        if (outcome === undefined) return;
        answered++;
        expect(outcome, `${check.expression} on person ${i}`).toBe(reference[i]);
      });
      // Where jq raises an error (endswith on a person without an email) the answer is rightly jq's.
      if (CLAIMED_ON_PEOPLE.includes(check.expression)) expect(fast.filter((_, i) => reference[i] !== 'e'), check.expression).not.toContain(undefined);
      if (NOT_CLAIMED.includes(check.expression)) expect(compileFastCheck(check), check.expression).toBeUndefined();
    }
    expect(answered).toBeGreaterThan(SHAPES.length * COMPACT.length * 0.6);
  });

  it('gives jq’s outcome on contexts no person gives (null team, a string team, mixed arrays, missing fields) or leaves them to jq', () => {
    const checks = SHAPES.map((expression) => ({ expression }));
    let answered = 0;
    let declined = 0;
    for (const { check, jq: reference, fast } of bothWays(checks, TRICKY, '.', (input) => input)) {
      fast.forEach((outcome, i) => {
        if (outcome === undefined) return void declined++;
        answered++;
        expect(outcome, `${check.expression} on ${JSON.stringify(TRICKY[i])}`).toBe(reference[i]);
      });
    }
    // Both happen: jq's errors (contains on null, startswith on a number) are left to jq, the rest answered.
    expect(answered).toBeGreaterThan(100);
    expect(declined).toBeGreaterThan(20);
  });

  it('answers through the same map as jq, sending only what it does not claim to jq, and asks a stand-in engine everything', () => {
    const checks = SHAPES.map((expression) => ({ expression }));
    const before = jq.requests?.() ?? 0;
    const mixed = userConditionOutcomes({ ...jq, answersAsJq: true }, checks, COMPACT);
    const reference = conditionOutcomes(jq, checks, COMPACT, USER_CONTEXT);
    expect(jq.requests?.() ?? 0).toBeGreaterThan(before);
    for (const check of checks) expect(mixed.get(checkKey(check)), check.expression).toEqual(reference.get(checkKey(check)));
    // An engine that is not jq (a test's stand-in answering "1" everywhere) is asked every check.
    const standIn = { ...jq, evaluateEach: undefined, evaluate: () => ({ ok: true as const, values: [['11111111']] }) };
    const asked = userConditionOutcomes(standIn, [{ expression: '.user.team | index("QA") != null' }], COMPACT);
    expect(asked.get(checkKey({ expression: '.user.team | index("QA") != null' }))).toEqual({ ok: true, outcomes: '11111111' });
  });

  it('keeps each check’s outcomes as one flat string, not a string joined once per context', () => {
    // Access with 5,000 different conditions over 1,048 contexts held one joined piece per outcome
    // (about 20 bytes each, 100 MB) until the flags were read: what is held after a collection is counted.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const contexts = Array.from({ length: 2_000 }, (_, i) => userContextObject(compactUser([`Team ${i % 97}`], [`Team ${i % 97}`], null, null)));
    const checks = Array.from({ length: 500 }, (_, i) => ({ expression: `.user.team | index("Team ${i % 97}") != null` }));
    collect();
    const before = process.memoryUsage().heapUsed;
    const outcomes = fastOutcomes(checks, contexts);
    collect();
    const held = process.memoryUsage().heapUsed - before;
    expect(outcomes.size).toBe(checks.length);
    expect([...outcomes.values()].every((text) => text.length === contexts.length)).toBe(true);
    // The outcome text itself is 500 × 2,000 bytes, 1 MB.
    expect(held).toBeLessThan(4 * 1024 * 1024);
  });
});
