/**
 * Issue 14: conditions are read as the service reads them (the first output, neither false nor
 * null), many checks over many users in one request, and one bad expression (a loop, a compile
 * error, a runtime error) never takes the others' answers with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { checkKey, conditionOutcomes, type ConditionCheck } from '../../src/jq/condition-outcomes.js';

let jq: JqEngine;
beforeAll(async () => {
  // The production limit: a shorter one would also cut the ordinary checks of a batch on a busy machine.
  jq = await loadJqEngine();
});
afterAll(async () => jq.close?.());

const answer = (checks: ConditionCheck[], inputs: unknown[]) => {
  const results = conditionOutcomes(jq, checks, inputs as never);
  return Object.fromEntries(
    checks.map((check) => {
      const result = results.get(checkKey(check));
      return [`${check.lists ?? ''}${check.expression}`, !result ? 'missing' : result.ok ? result.outcomes : `failed${result.failure ? `:${result.failure}` : ''}`];
    }),
  );
};

describe('conditionOutcomes', () => {
  it('answers each check per input, in one batch, whatever the others do', () => {
    const inputs = [{ a: 1, b: 2 }, { a: null }, { a: false }, { a: 0 }];
    const expressions = ['.a', 'empty', 'error("no")', '.b, .a', 'last(range(1e9))', 'nope(', '.a # a trailing comment', '.b | 1 / .'];
    expect(answer(expressions.map((expression) => ({ expression })), inputs)).toEqual({
      '.a': '1001',
      empty: 'nnnn',
      'error("no")': 'eeee',
      // Only the first output counts: `.b` (2, or null) decides, `.a` is never looked at.
      '.b, .a': '1000',
      'last(range(1e9))': 'failed:timeout',
      'nope(': 'failed',
      '.a # a trailing comment': '1001',
      '.b | 1 / .': '1eee',
    });
  });

  it('a condition holds when its first output is neither false nor null; a list check when the output lists the name', () => {
    const inputs = [{ x: 0 }, { x: '' }, { x: false }, { x: null }, { x: [true, false] }, { x: [null, true] }, { x: [] }, { x: ['name', 'other'] }];
    expect(answer([{ expression: '.x' }, { expression: '.x[]' }, { expression: '.x', lists: 'name' }], inputs)).toEqual({
      '.x': '11001111',
      // `.x[]` on a scalar is a runtime error; on a list only its first element counts.
      '.x[]': 'eeee10n1',
      'name.x': '00000001',
    });
  });
});
