import { afterAll, describe, expect, it } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { JsonValue } from '../../src/model/json.js';

const engines: JqEngine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close?.()));
});
/**
 * The engine's time limit is wall time, which a loaded machine stretches: at the default 1 s a
 * 1,000-input batch once timed out beside other work and was asked again ("expected 6 to be 4").
 * So a test that counts requests gets a limit that only catches a hang, and a test of timeouts a
 * limit a thousand times what its ordinary expressions need (under a millisecond each on a few
 * inputs) and a loop that never ends, so only the loop can reach it, however slow the machine.
 */
const HANG_GUARD_MS = 60_000;
const LOOP_LIMIT_MS = 1_000;
const NO_RESULT = `no result within ${LOOP_LIMIT_MS} ms`;
async function engine(workers: number, timeoutMs = HANG_GUARD_MS): Promise<JqEngine> {
  const loaded = await loadJqEngine({ workers, timeoutMs });
  engines.push(loaded);
  return loaded;
}

const HANG = '.team as $t | last(range(1e10)) | $t';
const contexts = (n: number): JsonValue[] => Array.from({ length: n }, (_, i) => ({ user: { team: [`Team ${i % 7}`, `Team ${i % 3}`] } }));

/** One expression over many inputs as the judge asks it: validated, prefetched in batches, then each answer from the caches. */
function evaluateAll(jq: JqEngine, expression: string, inputs: readonly JsonValue[]) {
  jq.validate(expression);
  jq.prefetch!({ evaluate: [{ expression, inputs }] });
  return inputs.map((input) => jq.evaluate(input, expression));
}

describe('one expression over a world\'s contexts (prefetch, then evaluate)', () => {
  it('answers each input as a lone call would, in order, running equal inputs once', async () => {
    const pooled = await engine(2);
    const alone = await engine(1);
    const inputs = [...contexts(30), ...contexts(30)];
    const expression = '.user.team | index("Team 2") != null';
    const before = pooled.requests!();
    const answers = evaluateAll(pooled, expression, inputs);
    // One to compile, one batch for the 30 distinct inputs (the other 30 are the same texts).
    expect(pooled.requests!() - before).toBe(2);
    expect(answers).toEqual(inputs.map((input) => alone.evaluate(input, expression)));
    // Kept by expression and input: asked again (as a condition repeated across actions is), nothing runs.
    const again = pooled.requests!();
    expect(evaluateAll(pooled, expression, inputs.slice(5, 20))).toEqual(answers.slice(5, 20));
    expect(pooled.evaluate(inputs[3]!, expression)).toEqual(answers[3]);
    expect(pooled.requests!()).toBe(again);
  });

  it('splits an expression over more inputs than one batch holds, so several workers share it', async () => {
    const pooled = await engine(3);
    const inputs = Array.from({ length: 2_500 }, (_, i): JsonValue => ({ n: i }));
    const before = pooled.requests!();
    const answers = evaluateAll(pooled, '.n * 2', inputs);
    expect(answers).toEqual(inputs.map((_, i) => ({ ok: true, values: [i * 2] })));
    // One to compile and three batches of at most 1,000 inputs.
    expect(pooled.requests!() - before).toBe(4);
  });

  it('keeps errors and failures exactly as lone calls give them, and runs a failed expression no more', async () => {
    const pooled = await engine(3, LOOP_LIMIT_MS);
    const inputs: JsonValue[] = [{ team: ['a'] }, { team: 3 }];
    expect(evaluateAll(pooled, '.team | join(",")', inputs)).toEqual([
      { ok: true, values: ['a'] },
      { ok: false, error: 'jq: error (at /dev/stdin:0): Cannot iterate over number (3)' },
    ]);
    expect(evaluateAll(pooled, HANG, inputs)).toEqual([
      { ok: false, error: NO_RESULT, failure: 'timeout' },
      { ok: false, error: NO_RESULT, failure: 'timeout' },
    ]);
    const before = pooled.requests!();
    expect(evaluateAll(pooled, HANG, [{ team: ['other'] }])).toMatchObject([{ ok: false, failure: 'timeout' }]);
    expect(pooled.requests!()).toBe(before);
  });
});

describe('prefetch on several workers', () => {
  it('a batch that loops times out on its worker while the others answer theirs; the looping expression is then asked alone, once', async () => {
    const pooled = await engine(3, LOOP_LIMIT_MS);
    const expressions = [...Array.from({ length: 120 }, (_, i) => `.team | length + ${i}`), HANG];
    const inputs = contexts(4).map((context) => ({ team: (context as { user: { team: string[] } }).user.team }));
    pooled.prefetch!({ validate: expressions, evaluate: expressions.map((expression) => ({ expression, inputs })) });
    // Answered by the batches: no request for the ordinary expressions (of every group but the looping one's).
    const before = pooled.requests!();
    expect(pooled.evaluate(inputs[0]!, '.team | length + 0')).toEqual({ ok: true, values: [2] });
    expect(pooled.evaluate(inputs[1]!, '.team | length + 60')).toEqual({ ok: true, values: [62] });
    expect(pooled.requests!()).toBe(before);
    // The looping expression's group mates (groups of fifty) are asked alone, and answer.
    expect(pooled.evaluate(inputs[1]!, '.team | length + 119')).toEqual({ ok: true, values: [121] });
    expect(pooled.requests!()).toBe(before + 1);
    expect(pooled.evaluate(inputs[0]!, HANG)).toEqual({ ok: false, error: NO_RESULT, failure: 'timeout' });
    const after = pooled.requests!();
    expect(after).toBe(before + 2);
    expect(pooled.evaluate(inputs[1]!, HANG)).toMatchObject({ ok: false, failure: 'timeout' });
    expect(pooled.requests!()).toBe(after);
  });
});

describe('lone calls known ahead (evaluateEach)', () => {
  it('answers as the same calls one by one would, equal calls once, on several workers', async () => {
    const pooled = await engine(3);
    const alone = await engine(1);
    const calls = [
      { input: { team: ['a', 'b'] } as JsonValue, expression: '.team | join(",")' },
      { input: { team: 3 } as JsonValue, expression: '.team | join(",")' },
      { input: { team: ['a', 'b'] } as JsonValue, expression: '.team | join(",")' },
      { input: { team: ['c'] } as JsonValue, expression: '.team | length' },
      { input: null, expression: '.a |' },
    ];
    const before = pooled.requests!();
    expect(pooled.evaluateEach!(calls)).toEqual(calls.map((call) => alone.evaluate(call.input, call.expression)));
    expect(pooled.requests!() - before).toBe(4);
    expect(pooled.evaluateEach!(calls.slice(0, 2))).toEqual(calls.slice(0, 2).map((call) => alone.evaluate(call.input, call.expression)));
    expect(pooled.requests!() - before).toBe(4);
  });

  it('after a call that fails, the same expression gives that failure, as it would one call at a time', async () => {
    const pooled = await engine(3, LOOP_LIMIT_MS);
    const loopsOnNumbers = 'if (.n | type) == "number" then last(range(1e10)) else .n end';
    const answers = pooled.evaluateEach!([
      { input: { n: 'first' }, expression: loopsOnNumbers },
      { input: { n: 1 }, expression: loopsOnNumbers },
      { input: { n: 'after' }, expression: loopsOnNumbers },
      { input: { n: 'other' }, expression: '.n' },
    ]);
    expect(answers).toEqual([
      { ok: true, values: ['first'] },
      { ok: false, error: NO_RESULT, failure: 'timeout' },
      { ok: false, error: NO_RESULT, failure: 'timeout' },
      { ok: true, values: ['other'] },
    ]);
    expect(pooled.evaluate({ n: 'later' }, loopsOnNumbers)).toMatchObject({ ok: false, failure: 'timeout' });
  });
});
