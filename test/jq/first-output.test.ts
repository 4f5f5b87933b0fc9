/**
 * Issue 14: conditions are read as the service reads them (the first output, neither false nor
 * null), many expressions over many users in one request, and one bad expression (a loop, a
 * compile error, a runtime error) never takes the others' answers with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { firstOutputsOfEach, holds, type FirstOutputs } from '../../src/jq/first-output.js';

let jq: JqEngine;
beforeAll(async () => {
  jq = await loadJqEngine({ timeoutMs: 300 });
});
afterAll(async () => jq.close?.());

const summary = (result: FirstOutputs | undefined) =>
  !result ? 'missing' : result.ok ? result.outputs.map((o) => (o.kind === 'value' ? JSON.stringify(o.value) : o.kind)).join(' ') : `failed${result.failure ? `:${result.failure}` : ''}`;

describe('firstOutputsOfEach', () => {
  it('gives each expression its first output per input, in one batch, whatever the others do', () => {
    const inputs = [{ a: 1, b: 2 }, { a: null }, { a: false }];
    const expressions = ['.a', 'empty', 'error("no")', '.a, .b', 'last(range(1e9))', 'nope(', '.a # a trailing comment', '.b | 1 / .'];
    const results = firstOutputsOfEach(jq, expressions, inputs);
    expect(Object.fromEntries(expressions.map((e) => [e, summary(results.get(e))]))).toEqual({
      '.a': '1 null false',
      empty: 'none none none',
      'error("no")': 'error error error',
      '.a, .b': '1 null false',
      'last(range(1e9))': 'failed:timeout',
      'nope(': 'failed',
      '.a # a trailing comment': '1 null false',
      '.b | 1 / .': '0.5 error error',
    });
  });

  it('a condition holds when its first output is neither false nor null', () => {
    const results = firstOutputsOfEach(jq, ['.x', '.x[]'], [{ x: 0 }, { x: '' }, { x: false }, { x: null }, { x: [true, false] }, { x: [null, true] }, { x: [] }]);
    const first = results.get('.x');
    const each = results.get('.x[]');
    expect(first?.ok && first.outputs.map(holds)).toEqual([true, true, false, false, true, true, true]);
    // `.x[]` on a scalar is a runtime error (not holding); on a list only its first element counts.
    expect(each?.ok && each.outputs.map(holds)).toEqual([false, false, false, false, true, false, false]);
  });
});
