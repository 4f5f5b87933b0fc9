import type { JsonValue } from '../model/json.js';
import { evaluationGroups, type EvaluationFailure, type JqEngine } from './engine.js';

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
 * well inside the engine's 1 s limit (engine.ts DEFAULT_TIMEOUT_MS). A condition costs jq-wasm
 * 5–100 µs per input: `.user.team | index("…")` goes through jq's own `indices`, 40–240 ms for
 * 1,048 contexts on a loaded 2-core machine (issue 33, measured), and 40,000 evaluations timed
 * out every time, to be asked again check by check. 4,000 keeps such a batch near 0.2 s; the
 * inputs travel once per request, which costs little beside the checks.
 */
const BATCH_EVALUATIONS = 4_000;
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
  if (inputs.length === 0) {
    for (const [key] of runnable) results.set(key, { ok: true, outcomes: '' });
    return results;
  }
  const perBatch = Math.max(1, Math.min(BATCH_CHECKS, Math.floor(BATCH_EVALUATIONS / Math.max(1, inputs.length))));
  // Cut as engine.ts cuts its requests: the checks carry no input of their own (all go to every batch).
  const tasks = [...runnable.values()].map((check) => ({ expression: check.expression, inputs: [], check }));
  const all = evaluationGroups(tasks, { expressions: perBatch, inputs: 0, chars: BATCH_CHARS }).map((group) => group.map((task) => task.check));
  // Every batch at once (on every jq worker); the few that fail are asked again, check by check.
  const answered = runBatches(jq, all, inputs, prelude);
  const retry: ConditionCheck[][] = [];
  all.forEach((batch, index) => {
    const answer = answered[index]!;
    if (answer.ok) batch.forEach((check, i) => results.set(checkKey(check), { ok: true, outcomes: answer.outcomes[i]! }));
    else if (batch.length === 1) results.set(checkKey(batch[0]!), answer);
    else retry.push(...batch.map((check) => [check]));
  });
  runBatches(jq, retry, inputs, prelude).forEach((answer, index) => {
    const check = retry[index]![0]!;
    results.set(checkKey(check), answer.ok ? { ok: true, outcomes: answer.outcomes[0]! } : answer);
  });
  return results;
}

type BatchAnswer = { ok: true; outcomes: string[] } | { ok: false; error: string; failure?: EvaluationFailure };

/** Each batch `fast`, then those that met a runtime error (not a timeout or crash) again `safe`, error by error. */
function runBatches(jq: JqEngine, all: readonly (readonly ConditionCheck[])[], inputs: readonly JsonValue[], prelude: string): BatchAnswer[] {
  const answers = ask(jq, all, inputs, prelude, 'fast');
  const again = answers.flatMap((answer, index) => (!answer.ok && answer.failure === undefined ? [index] : []));
  ask(jq, again.map((index) => all[index]!), inputs, prelude, 'safe').forEach((answer, i) => (answers[again[i]!] = answer));
  return answers;
}

/** `prelude` builds each input from a compact form first: what travels to jq (and stays in its cache) is smaller. */
function ask(jq: JqEngine, all: readonly (readonly ConditionCheck[])[], inputs: readonly JsonValue[], prelude: string, mode: 'fast' | 'safe'): BatchAnswer[] {
  const calls = all.map((batch) => ({ input: inputs as JsonValue, expression: `map(${prelude}) | [${batch.map((check) => program(check, mode)).join(',\n')}]` }));
  const results = jq.evaluateEach ? jq.evaluateEach(calls) : calls.map((call) => jq.evaluate(call.input, call.expression));
  return results.map((result, index) => {
    if (!result.ok) return result;
    const batch = all[index]!;
    const [answers] = result.values;
    if (!Array.isArray(answers) || answers.length !== batch.length || !answers.every((a) => typeof a === 'string' && a.length === inputs.length)) {
      return { ok: false, error: 'jq gave no answer per input', failure: 'crash' };
    }
    return { ok: true, outcomes: answers as string[] };
  });
}
