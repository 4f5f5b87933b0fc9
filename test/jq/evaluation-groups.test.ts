import { describe, expect, it } from 'vitest';
import { evaluationGroups } from '../../src/jq/engine.js';

/**
 * Issue 33: batched requests carry each input once, so expressions over the same contexts go
 * together and the limits count distinct inputs. jq parses its input slowly (wasm), and the 10x
 * org's work sent each of its contexts fifteen times when tasks were cut in the order listed.
 */
const task = (expression: string, ...inputs: string[]) => ({ expression, inputs });
const names = (groups: { expression: string }[][]) => groups.map((group) => group.map((t) => t.expression));
/** How many times each input is carried over all requests. */
const carried = (groups: { inputs: readonly string[] }[][]) => {
  const counts = new Map<string, number>();
  for (const group of groups) for (const input of new Set(group.flatMap((t) => t.inputs))) counts.set(input, (counts.get(input) ?? 0) + 1);
  return counts;
};

describe('evaluationGroups', () => {
  it('puts tasks over the same inputs together, so each input is carried by one request', () => {
    const tasks = [task('a', '{"x":1}', '{"y":1}'), task('b', '{"z":1}'), task('c', '{"y":1}', '{"x":1}'), task('d', '{"z":1}')];
    const groups = evaluationGroups(tasks, { expressions: 2, inputs: 100, chars: 10_000 });
    expect(names(groups)).toEqual([['a', 'c'], ['b', 'd']]);
    expect([...carried(groups).values()]).toEqual([1, 1, 1]);
    // Negative case: cut in the order listed (as before), every input rides in both requests.
    const listed = [tasks.slice(0, 2), tasks.slice(2)];
    expect([...carried(listed).values()]).toEqual([2, 2, 2]);
  });

  it('counts an input once against the limits, however many tasks share it', () => {
    const tasks = ['a', 'b', 'c', 'd'].map((name) => task(name, '{"x":1}', '{"y":1}'));
    expect(names(evaluationGroups(tasks, { expressions: 10, inputs: 2, chars: 10_000 }))).toEqual([['a', 'b', 'c', 'd']]);
    // The characters too: four short expressions over the same 14 characters of input fit in 20.
    expect(names(evaluationGroups(tasks, { expressions: 10, inputs: 10, chars: 18 }))).toEqual([['a', 'b', 'c', 'd']]);
  });

  it('keeps each request within every limit, and every task exactly once', () => {
    const inputs = Array.from({ length: 7 }, (_, i) => `{"n":${i}}`);
    const tasks = Array.from({ length: 40 }, (_, i) => task(`e${i}`, ...inputs.filter((_, k) => (i + k) % 3 === 0)));
    const limits = { expressions: 6, inputs: 4, chars: 60, evaluations: 7 };
    const groups = evaluationGroups(tasks, limits);
    expect(groups.flat().map((t) => t.expression).sort()).toEqual(tasks.map((t) => t.expression).sort());
    for (const group of groups) {
      const distinct = new Set(group.flatMap((t) => t.inputs));
      expect(group.length).toBeLessThanOrEqual(limits.expressions);
      expect(distinct.size).toBeLessThanOrEqual(limits.inputs);
      if (group.length > 1) expect(group.reduce((sum, t) => sum + t.inputs.length, 0)).toBeLessThanOrEqual(limits.evaluations);
      expect(group.reduce((sum, t) => sum + t.expression.length, 0) + [...distinct].reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(limits.chars);
    }
  });

  it('bounds the runs of a request, expressions times their inputs, even when they share them all', () => {
    const shared = Array.from({ length: 10 }, (_, i) => `{"n":${i}}`);
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((name) => task(name, ...shared));
    const groups = evaluationGroups(tasks, { expressions: 100, inputs: 100, chars: 100_000, evaluations: 20 });
    expect(names(groups)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    // Without the bound, one request would run all 50.
    expect(names(evaluationGroups(tasks, { expressions: 100, inputs: 100, chars: 100_000 }))).toEqual([['a', 'b', 'c', 'd', 'e']]);
  });

  it('alone, a task over the limits is still a request of its own', () => {
    expect(names(evaluationGroups([task('big', '{"a":"' + 'x'.repeat(100) + '"}'), task('small', '1')], { expressions: 5, inputs: 5, chars: 20 }))).toEqual([['big'], ['small']]);
  });

  it('makes the same requests for the same work', () => {
    const tasks = Array.from({ length: 30 }, (_, i) => task(`e${i}`, `{"k":${i % 4}}`, `{"k":${(i * 7) % 5}}`));
    expect(evaluationGroups(tasks, { expressions: 4, inputs: 3, chars: 1_000 })).toEqual(evaluationGroups([...tasks], { expressions: 4, inputs: 3, chars: 1_000 }));
  });
});
