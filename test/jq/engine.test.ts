import { beforeAll, describe, expect, it } from 'vitest';
import { firstLine, loadJqEngine, type JqEngine } from '../../src/jq/engine.js';

let jq: JqEngine;
beforeAll(async () => {
  jq = await loadJqEngine();
});

describe('jq engine', () => {
  it('accepts valid expressions, including definitions and trailing comments', () => {
    expect(jq.validate('.team | index("Platform Team") != null')).toEqual({ ok: true });
    expect(jq.validate('def owners: .team; owners | length')).toEqual({ ok: true });
    expect(jq.validate('.team # the owners')).toEqual({ ok: true });
  });

  it("rejects invalid expressions with jq's own first line, unshifted by the wrapper", () => {
    expect(jq.validate('.team |')).toEqual({
      ok: false,
      error: 'jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 7',
    });
    expect(jq.validate('$nobody')).toEqual({ ok: false, error: 'jq: error: $nobody is not defined at <top-level>, line 1, column 1' });
  });

  it('does not run an expression to validate it', () => {
    // Would never finish if it ran; compiling it is instant.
    expect(jq.validate('def forever: forever; forever')).toEqual({ ok: true });
    expect(jq.validate('error("boom")')).toEqual({ ok: true });
  });

  it('evaluates to every output value', () => {
    expect(jq.evaluate({ team: ['Payments', 'Platform Team'] }, '.team[]')).toEqual({ ok: true, values: ['Payments', 'Platform Team'] });
    expect(jq.evaluate({ team: [] }, '.team[]')).toEqual({ ok: true, values: [] });
  });

  it('returns runtime errors as results, not exceptions', () => {
    expect(jq.evaluate({ team: 3 }, '.team | join(",")')).toEqual({
      ok: false,
      error: 'jq: error (at /dev/stdin:0): Cannot iterate over number (3)',
    });
    expect(jq.evaluate(null, '.a |')).toMatchObject({ ok: false, error: expect.stringContaining('syntax error') });
  });

  it('keeps working for thousands of evaluations in one process (jq-wasm 1.0.1 aborted after ~300)', () => {
    let sum = 0;
    for (let i = 0; i < 3000; i++) {
      // Distinct inputs, so the cache cannot answer for jq.
      const result = jq.evaluate({ n: i }, '.n + 1');
      if (!result.ok) throw new Error(result.error);
      sum += result.values[0] as number;
    }
    expect(sum).toBe((3000 * 3001) / 2);
  });
});

describe('firstLine', () => {
  it('skips blank lines and trims', () => {
    expect(firstLine('\n  jq: error: x  \n    .a\n')).toBe('jq: error: x');
    expect(firstLine('jq: error: syntax error at <top-level>, line 1, column 7:\n    .a |\n')).toBe('jq: error: syntax error at <top-level>, line 1, column 7');
    expect(firstLine('')).toBe('');
  });
});
