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
/** Ours: and at most this much expression text per request. */
const BATCH_CHARS = 64 * 1024;

/**
 * The check as jq: `limit(1; …)` stops at the first output; `try` keeps one input's runtime error
 * from hiding the other answers. The newlines keep a trailing `# comment` from swallowing the
 * closing parenthesis.
 */
function program(check: ConditionCheck): string {
  const test = check.lists === undefined ? '(.[0] != false and .[0] != null)' : `(.[0] | type == "array" and any(.[]; . == ${JSON.stringify(check.lists)}))`;
  return `(map(try ([limit(1; (\n${check.expression}\n))] | if length == 0 then "n" elif ${test} then "1" else "0" end) catch "e") | join(""))`;
}

export const checkKey = (check: ConditionCheck) => `${check.lists ?? ''}\u0000${check.expression}`;

/**
 * The outcome of each check on each of `inputs`, by `checkKey`. The inputs go to jq once per
 * batch of checks; an expression jq does not compile, or a batch that times out or crashes, is
 * answered one check at a time so only the culprit fails.
 */
export function conditionOutcomes(jq: JqEngine, checks: readonly ConditionCheck[], inputs: readonly JsonValue[]): Map<string, ConditionOutcomes> {
  const results = new Map<string, ConditionOutcomes>();
  const runnable = new Map<string, ConditionCheck>();
  for (const check of checks) {
    const key = checkKey(check);
    if (results.has(key) || runnable.has(key)) continue;
    const compiled = jq.validate(check.expression);
    if (compiled.ok) runnable.set(key, check);
    else results.set(key, compiled);
  }
  for (const batch of batches([...runnable.values()])) {
    const answered = runBatch(jq, batch, inputs);
    if (answered.ok) batch.forEach((check, index) => results.set(checkKey(check), { ok: true, outcomes: answered.outcomes[index]! }));
    else for (const check of batch) results.set(checkKey(check), batch.length === 1 ? answered : alone(jq, check, inputs));
  }
  return results;
}

function alone(jq: JqEngine, check: ConditionCheck, inputs: readonly JsonValue[]): ConditionOutcomes {
  const answered = runBatch(jq, [check], inputs);
  return answered.ok ? { ok: true, outcomes: answered.outcomes[0]! } : answered;
}

function runBatch(jq: JqEngine, batch: readonly ConditionCheck[], inputs: readonly JsonValue[]): { ok: true; outcomes: string[] } | { ok: false; error: string; failure?: EvaluationFailure } {
  if (inputs.length === 0) return { ok: true, outcomes: batch.map(() => '') };
  const result = jq.evaluate(inputs as JsonValue, `[${batch.map(program).join(',\n')}]`);
  if (!result.ok) return result;
  const [answers] = result.values;
  if (!Array.isArray(answers) || answers.length !== batch.length || !answers.every((a) => typeof a === 'string' && a.length === inputs.length)) {
    return { ok: false, error: 'jq gave no answer per input', failure: 'crash' };
  }
  return { ok: true, outcomes: answers as string[] };
}

function* batches(checks: readonly ConditionCheck[]): Generator<ConditionCheck[]> {
  let batch: ConditionCheck[] = [];
  let chars = 0;
  for (const check of checks) {
    if (batch.length > 0 && (batch.length >= BATCH_CHECKS || chars + check.expression.length > BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(check);
    chars += check.expression.length;
  }
  if (batch.length > 0) yield batch;
}
