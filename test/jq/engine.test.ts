import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMEOUT_MS, firstLine, loadJqEngine, type JqEngine } from '../../src/jq/engine.js';

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

  it('runs on a string input as on that string, as a batch does, not on its text read as JSON', () => {
    // A lone call read the string as JSON text: "abc" failed to parse and "1\n2" gave two numbers.
    expect(jq.evaluate('abc', '.')).toEqual({ ok: true, values: ['abc'] });
    expect(jq.evaluate('1\n2', '.')).toEqual({ ok: true, values: ['1\n2'] });
    expect(jq.evaluate('{"a":1}', '.[]')).toEqual({ ok: false, error: 'jq: error (at /dev/stdin:0): Cannot iterate over string ("{\\"a\\":1}")' });
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

/** Loops for ever on any input: jq-wasm never returns from it. */
const HANG = '.team as $t | last(range(1e9)) | $t';
/** Recurses until the wasm runtime aborts (`Aborted()`), a RuntimeError, not a JqError. */
const ABORT = 'def f: [f]; .team | f';

describe('isolation: the org\'s expressions cannot hang or crash the audit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a never-ending evaluation becomes a timeout at the limit, and jq keeps working after it', async () => {
    // The production limit: a shorter one would also cut the ordinary requests on a busy machine.
    const engine = await loadJqEngine();
    try {
      expect(engine.evaluate({ team: ['Payments'] }, HANG)).toEqual({ ok: false, error: `no result within ${DEFAULT_TIMEOUT_MS} ms`, failure: 'timeout' });
      // A fresh worker answers the next request.
      expect(engine.evaluate({ team: ['Payments', 'Platform Team'] }, '.team | join(", ")')).toEqual({ ok: true, values: ['Payments, Platform Team'] });
      // The expression that timed out is not run again, on any input: that would only cost the same.
      const before = engine.requests!();
      expect(engine.evaluate({ team: ['Other'] }, HANG)).toMatchObject({ ok: false, failure: 'timeout' });
      expect(engine.validate(HANG)).toMatchObject({ ok: false, failure: 'timeout' });
      // Running either again would be a request that waits out the whole limit; a remembered answer sends none.
      expect(engine.requests!() - before).toBe(0);
      expect(engine.validate('.team |')).toMatchObject({ ok: false, error: expect.stringContaining('syntax error') });
    } finally {
      await engine.close?.();
    }
  });

  it('a crash of the wasm runtime becomes a result, prints nothing, and jq keeps working after it', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    // A generous limit, so the abort (a few hundred ms of recursion) is seen as the crash it is.
    const engine = await loadJqEngine({ timeoutMs: 60_000 });
    try {
      expect(engine.evaluate({ team: ['Payments'] }, ABORT)).toEqual({ ok: false, error: 'jq ran out of memory or stack while running it', failure: 'crash' });
      expect(engine.evaluate({ team: ['Payments'] }, '.team[0]')).toEqual({ ok: true, values: ['Payments'] });
      for (let i = 0; i < 20; i++) expect(engine.evaluate({ n: i }, '.n * 2')).toEqual({ ok: true, values: [i * 2] });
      // Worker output would arrive asynchronously: give it the chance to show up. (A slow machine can
      // only make this pass wrongly, never fail: nothing here races the clock.)
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await engine.close?.();
    }
    expect(written.join('')).toBe('');
  });
});

describe('firstLine', () => {
  it('skips blank lines and trims', () => {
    expect(firstLine('\n  jq: error: x  \n    .a\n')).toBe('jq: error: x');
    expect(firstLine('jq: error: syntax error at <top-level>, line 1, column 7:\n    .a |\n')).toBe('jq: error: syntax error at <top-level>, line 1, column 7');
    expect(firstLine('')).toBe('');
  });
});
