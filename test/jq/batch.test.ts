import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, loadJqEngine } from '../../src/jq/engine.js';
import { useEnginePair } from '../support/engine-pair.js';
import { batchable } from '../../src/jq/batch.js';
import type { JsonValue } from '../../src/model/json.js';

const engines = useEnginePair();

const INPUTS: JsonValue[] = [
  { team: ['Payments', 'Platform Team'], relations: { owning_team: 'payments' }, n: 100000000000000000001 },
  { team: [], relations: {} },
  { team: 'Payments' },
  { team: 3 },
  [1, 'two', null],
  null,
];

/** Valid jq of every shape a batch must answer exactly as a lone call, or leave to one. */
const EXPRESSIONS = [
  '.team',
  '.team[]',
  '.team | join(",")', // a runtime error on some inputs
  'def owners: .team; owners | length',
  '"owned by \\(.team)"',
  '[.[]?] | length',
  'empty',
  '.n',
  'if .team == [] then error({why: "no team"}) else .team end',
  'error(null)',
  'try input catch "none"', // reads the next input: never batched
  '$__loc__', // line numbers: never batched
  '.team # a comment',
  '., .',
  'first(.team[]?)',
  'label $out | .team[]? | ., break $out',
  '. as [$a] ?// {team: $a} | $a',
  '.team |= (. // [] | length)',
  'debug | .team',
];

describe('jq batches', () => {
  it('keeps out what could leave its brackets or read another input', () => {
    expect(batchable('.team | map(ascii_downcase)')).toBe(true);
    expect(batchable('"\\(.team | length)"')).toBe(true);
    expect(batchable('1), (2')).toBe(false);
    expect(batchable('1] | [2')).toBe(false);
    expect(batchable('.team # note')).toBe(false);
    expect(batchable('input')).toBe(false);
    expect(batchable('$__loc__')).toBe(false);
    expect(batchable('   ')).toBe(false);
    expect(batchable('"\\(1))"')).toBe(true); // the `)` is text inside the string
    expect(batchable('"\\(1]) "')).toBe(false);
  });

  it('answers validations exactly as one call each, whatever else is in the batch', () => {
    const expressions = [...EXPRESSIONS, '.team |', '1), (2', '1] | [2', '$nobody', 'def f: g; f', '.a as $x | $y', ''];
    engines.batched().prefetch!({ validate: expressions });
    for (const expression of expressions) expect(engines.batched().validate(expression), expression).toEqual(engines.alone().validate(expression));
  });

  it('answers evaluations exactly as one call each, error texts included', () => {
    const before = engines.batched().requests!();
    engines.batched().prefetch!({ validate: EXPRESSIONS, evaluate: EXPRESSIONS.map((expression) => ({ expression, inputs: INPUTS })) });
    const prefetchRequests = engines.batched().requests!() - before;
    // One request, not one per expression and input: the expressions are compiled by the request that runs them.
    expect(prefetchRequests).toBe(1);
    for (const expression of EXPRESSIONS) {
      for (const input of INPUTS) expect(engines.batched().evaluate(input, expression), `${expression} on ${JSON.stringify(input)}`).toEqual(engines.alone().evaluate(input, expression));
    }
    // What a batch answered costs no request later; errors, `input` and `$__loc__` were asked alone.
    const later = engines.batched().requests!() - before - prefetchRequests;
    expect(later).toBeGreaterThan(0);
    expect(later).toBeLessThan(EXPRESSIONS.length * INPUTS.length / 2);
  });

  it('answers a runtime error with a string message in the batch, jq\'s own text, without asking it alone again', () => {
    // On null, a calculation that iterates its input raises an error (issue 41: 879 of a repository
    // scan's 1,173 jq requests were such errors asked again one at a time, only for their text).
    const raising = ['.team | join(",")', '.team[] | ascii_downcase', '.[] | tostring | error', 'error("two\\nlines")', 'error("")', 'error("\\n")', '"x" + .team[0]', '.team | tostring | error'];
    const whole = raising.map((expression) => ({ expression, inputs: INPUTS }));
    engines.batched().prefetch!({ validate: raising, evaluate: whole });
    const before = engines.batched().requests!();
    for (const expression of raising) {
      for (const input of INPUTS) expect(engines.batched().evaluate(input, expression), `${expression} on ${JSON.stringify(input)}`).toEqual(engines.alone().evaluate(input, expression));
    }
    const errors = raising.flatMap((expression) => INPUTS.filter((input) => !engines.alone().evaluate(input, expression).ok));
    expect(errors.length).toBeGreaterThan(raising.length);
    expect(engines.batched().requests!() - before).toBe(0);
    // What jq prints besides the error (debug, stderr), an error that is no string, or a text jq
    // cuts at a NUL, is still asked alone: its text is the lone call's.
    const alone = ['debug | error("after")', 'stderr | error("after")', 'error({why: 1})', 'error("a\\u0000b")', 'error(1.0)'];
    engines.batched().prefetch!({ validate: alone, evaluate: alone.map((expression) => ({ expression, inputs: [null] })) });
    const then = engines.batched().requests!();
    for (const expression of alone) expect(engines.batched().evaluate(null, expression), expression).toEqual(engines.alone().evaluate(null, expression));
    expect(engines.batched().requests!() - then).toBe(alone.length);
  });

  it('leaves an expression that loops to the lone call, which times out as before, and still answers the rest', async () => {
    // The production limit: a shorter one would also cut the ordinary batch on a busy machine.
    const engine = await loadJqEngine();
    try {
      const loop = 'last(range(1e10)) | .team';
      engine.prefetch!({ validate: [loop, '.team'], evaluate: [{ expression: loop, inputs: INPUTS.slice(0, 2) }, { expression: '.team', inputs: INPUTS.slice(0, 2) }] });
      expect(engine.evaluate(INPUTS[0]!, loop)).toEqual({ ok: false, error: `no result within ${DEFAULT_TIMEOUT_MS} ms`, failure: 'timeout' });
      expect(engine.evaluate(INPUTS[0]!, '.team')).toEqual({ ok: true, values: [['Payments', 'Platform Team']] });
    } finally {
      await engine.close?.();
    }
  });

  it('finds an expression that does not compile alone by halving the request that runs it, and answers the rest', async () => {
    const engine = await loadJqEngine();
    try {
      const expressions = ['.team', '.team |', '.relations', '.n'];
      engine.prefetch!({ validate: expressions, evaluate: expressions.map((expression) => ({ expression, inputs: INPUTS.slice(0, 2) })) });
      const before = engine.requests!();
      for (const expression of ['.team', '.relations', '.n']) {
        expect(engine.validate(expression)).toEqual({ ok: true });
        for (const input of INPUTS.slice(0, 2)) expect(engine.evaluate(input, expression)).toEqual(engines.alone().evaluate(input, expression));
      }
      expect(engine.requests!() - before).toBe(0);
      expect(engine.validate('.team |')).toEqual(engines.alone().validate('.team |'));
    } finally {
      await engine.close?.();
    }
  });

  it('never runs in a batch what jq does not compile alone', async () => {
    const engine = await loadJqEngine();
    try {
      // Not validated, or invalid: prefetch must not answer them, so the lone call's compile error stays.
      engine.prefetch!({ evaluate: [{ expression: '.team', inputs: [INPUTS[0]!] }] });
      const before = engine.requests!();
      expect(engine.evaluate(INPUTS[0]!, '.team')).toEqual({ ok: true, values: [['Payments', 'Platform Team']] });
      expect(engine.requests!() - before).toBe(1);
    } finally {
      await engine.close?.();
    }
  });
});
