/**
 * jq itself, through jq-wasm. This is the only module that imports jq-wasm: the version is pinned
 * to 3.0.0-jq-1.8.2 because the `latest` tag (1.0.1) aborts after about 300 evaluations in one
 * process. Loading is async (the wasm compiles once); everything after that is synchronous, so
 * rules stay plain functions that receive a loaded engine.
 */
import { JqError, loadJq } from 'jq-wasm';
import type { JsonValue } from '../model/json.js';

export type CompileResult = { ok: true } | { ok: false; error: string };
export type EvaluateResult = { ok: true; values: JsonValue[] } | { ok: false; error: string };

export interface JqEngine {
  /** Does jq compile the expression? Cached per expression string: big orgs repeat them. */
  validate(expression: string): CompileResult;
  /** Run the expression on one input; every output value, or jq's own error message. */
  evaluate(input: JsonValue, expression: string): EvaluateResult;
}

/** jq exits with 3 on a compile error and 5 on a runtime error. */
const COMPILE_ERROR_EXIT = 3;

export async function loadJqEngine(): Promise<JqEngine> {
  const jq = await loadJq();
  const compiled = new Map<string, CompileResult>();
  const evaluated = new Map<string, EvaluateResult>();

  const validate = (expression: string): CompileResult => {
    const cached = compiled.get(expression);
    if (cached) return cached;
    // Compiled but never run: `empty` produces nothing, so the right side is never evaluated and
    // an expression that loops or is slow costs nothing here. The newlines keep a trailing
    // `# comment` from swallowing the closing parenthesis.
    const wrapped = jq.raw(null, `empty | (\n${expression}\n)`);
    let result: CompileResult = { ok: true };
    if (wrapped.exitCode !== 0) {
      // The wrapper shifts jq's line numbers; ask again unwrapped for jq's exact message. A
      // compile error stops jq before it runs anything, so this cannot execute the expression
      // unless the wrapper alone was at fault (a comment continued by a trailing backslash).
      const direct = jq.raw(null, expression);
      if (direct.exitCode === COMPILE_ERROR_EXIT) result = { ok: false, error: firstLine(direct.stderr) };
    }
    compiled.set(expression, result);
    return result;
  };

  const evaluate = (input: JsonValue, expression: string): EvaluateResult => {
    const key = `${expression}\u0000${JSON.stringify(input)}`;
    const cached = evaluated.get(key);
    if (cached) return cached;
    let result: EvaluateResult;
    try {
      result = { ok: true, values: jq.json<JsonValue>(input, expression) };
    } catch (error) {
      // Only jq's own failures are answers; anything else is a bug and must surface.
      if (!(error instanceof JqError)) throw error;
      result = { ok: false, error: firstLine(error.stderr) };
    }
    evaluated.set(key, result);
    return result;
  };

  return { validate, evaluate };
}

/**
 * jq's message is the first line of stderr; the rest repeats the source with a caret, which the
 * first line's trailing colon introduces, so that colon goes too.
 */
export function firstLine(stderr: string): string {
  return (stderr.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/:$/, '');
}
