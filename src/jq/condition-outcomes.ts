import type { JsonValue } from '../model/json.js';
import type { EvaluationFailure, JqEngine } from './engine.js';

/**
 * One condition to answer per input, as the service reads it: from the expression's first output
 * only. By default it holds when that output is neither false nor null; with `lists`, when that
 * output is an array holding the string (a form's `required` jqQuery naming an input).
 */
export interface ConditionCheck {
  expression: string;
  lists?: string;
}

/**
 * One character per input, in input order: `1` holds, `0` does not, `n` the expression gave no
 * output, `e` it raised a runtime error. A string, not objects: thousands of users times thousands
 * of conditions stay a few megabytes in the engine's cache.
 */
export type ConditionOutcomes = { ok: true; outcomes: string } | { ok: false; error: string; failure?: EvaluationFailure };

/**
 * Ours: checks per request to jq. Many conditions must not cost one worker round trip each, nor
 * one copy of every input each in the engine's cache; a request that fails is retried one check
 * at a time, so a larger batch only costs more when an expression loops.
 */
const BATCH_CHECKS = 64;
/**
 * Ours: and at most this many evaluations (checks × inputs) per request. A request must finish
 * well inside the engine's 1 s limit (engine.ts DEFAULT_TIMEOUT_MS): an ordinary condition costs
 * jq-wasm about 5 µs per input (measured: 20 checks × 4,000 users in 0.45 s), so this keeps a
 * batch near 0.25 s, with room for a slow runner.
 */
const BATCH_EVALUATIONS = 40_000;
/** Ours: and at most this much expression text per request. */
const BATCH_CHARS = 64 * 1024;

/**
 * The check as jq, two ways. `fast`: `first(…)` stops at the first output, `// "n"` marks none;
 * a runtime error on any input fails the whole request, which then runs `safe`, where `try` keeps
 * one input's error from hiding the other answers. `fast` costs jq half as much per input. The
 * newlines keep a trailing `# comment` from swallowing the closing parenthesis.
 */
export function program(check: ConditionCheck, mode: 'fast' | 'safe'): string {
  const test = check.lists === undefined ? '(. != false and . != null)' : `(type == "array" and any(.[]; . == ${JSON.stringify(check.lists)}))`;
  const each =
    mode === 'fast'
      ? `(first((\n${check.expression}\n) | if ${test} then "1" else "0" end) // "n")`
      : `(try ([limit(1; (\n${check.expression}\n))] | if length == 0 then "n" elif (.[0] | ${test}) then "1" else "0" end) catch "e")`;
  return `(map(${each}) | join(""))`;
}

export const checkKey = (check: ConditionCheck) => `${check.lists ?? ''}\u0000${check.expression}`;

/**
 * The outcome of each check on each of `inputs` (each first turned into what the checks read by
 * the jq `prelude`, when given), by `checkKey`. The inputs go to jq once per
 * batch of checks; an expression jq does not compile, or a batch that times out or crashes, is
 * answered one check at a time so only the culprit fails.
 */
export function conditionOutcomes(jq: JqEngine, checks: readonly ConditionCheck[], inputs: readonly JsonValue[], prelude = '.'): Map<string, ConditionOutcomes> {
  const results = new Map<string, ConditionOutcomes>();
  const runnable = new Map<string, ConditionCheck>();
  for (const check of checks) {
    const key = checkKey(check);
    if (results.has(key) || runnable.has(key)) continue;
    const compiled = jq.validate(check.expression);
    if (compiled.ok) runnable.set(key, check);
    else results.set(key, compiled);
  }
  const perBatch = Math.max(1, Math.min(BATCH_CHECKS, Math.floor(BATCH_EVALUATIONS / Math.max(1, inputs.length))));
  for (const batch of batches([...runnable.values()], perBatch)) {
    const answered = runBatch(jq, batch, inputs, prelude);
    if (answered.ok) batch.forEach((check, index) => results.set(checkKey(check), { ok: true, outcomes: answered.outcomes[index]! }));
    else for (const check of batch) results.set(checkKey(check), batch.length === 1 ? answered : alone(jq, check, inputs, prelude));
  }
  return results;
}

function alone(jq: JqEngine, check: ConditionCheck, inputs: readonly JsonValue[], prelude: string): ConditionOutcomes {
  const answered = runBatch(jq, [check], inputs, prelude);
  return answered.ok ? { ok: true, outcomes: answered.outcomes[0]! } : answered;
}

type BatchAnswer = { ok: true; outcomes: string[] } | { ok: false; error: string; failure?: EvaluationFailure };

function runBatch(jq: JqEngine, batch: readonly ConditionCheck[], inputs: readonly JsonValue[], prelude: string): BatchAnswer {
  if (inputs.length === 0) return { ok: true, outcomes: batch.map(() => '') };
  const fast = ask(jq, batch, inputs, prelude, 'fast');
  // A runtime error somewhere (not a timeout or crash): the same batch again, error by error.
  return !fast.ok && fast.failure === undefined ? ask(jq, batch, inputs, prelude, 'safe') : fast;
}

/** `prelude` builds each input from a compact form first: what travels to jq (and stays in its cache) is smaller. */
function ask(jq: JqEngine, batch: readonly ConditionCheck[], inputs: readonly JsonValue[], prelude: string, mode: 'fast' | 'safe'): BatchAnswer {
  const result = jq.evaluate(inputs as JsonValue, `map(${prelude}) | [${batch.map((check) => program(check, mode)).join(',\n')}]`);
  if (!result.ok) return result;
  const [answers] = result.values;
  if (!Array.isArray(answers) || answers.length !== batch.length || !answers.every((a) => typeof a === 'string' && a.length === inputs.length)) {
    return { ok: false, error: 'jq gave no answer per input', failure: 'crash' };
  }
  return { ok: true, outcomes: answers as string[] };
}

function* batches(checks: readonly ConditionCheck[], perBatch: number): Generator<ConditionCheck[]> {
  let batch: ConditionCheck[] = [];
  let chars = 0;
  for (const check of checks) {
    if (batch.length > 0 && (batch.length >= perBatch || chars + check.expression.length > BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(check);
    chars += check.expression.length;
  }
  if (batch.length > 0) yield batch;
}
