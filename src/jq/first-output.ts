import type { JsonValue } from '../model/json.js';
import type { EvaluationFailure, JqEngine } from './engine.js';

/** What one expression gave on one input: its first output, none, or jq's runtime error. */
export type FirstOutput = { kind: 'value'; value: JsonValue } | { kind: 'none' } | { kind: 'error'; error: string };

export type FirstOutputs = { ok: true; outputs: FirstOutput[] } | { ok: false; error: string; failure?: EvaluationFailure };

/**
 * The first output of `expression` on each of `inputs`, in one request to jq: an expression runs
 * for thousands of users, and one worker round trip per user would cost seconds. `limit(1; …)`
 * stops at the first output, as the service reads a condition; `try` keeps one input's runtime
 * error from hiding the others' answers. The newlines keep a trailing `# comment` in the
 * expression from swallowing the closing parenthesis.
 */
export function firstOutputs(jq: JqEngine, expression: string, inputs: readonly JsonValue[]): FirstOutputs {
  if (inputs.length === 0) return { ok: true, outputs: [] };
  const compiled = jq.validate(expression);
  if (!compiled.ok) return compiled;
  const wrapped = `map(try ([limit(1; (\n${expression}\n))] | if length == 0 then {none: true} else {value: .[0]} end) catch {error: (. | tostring)})`;
  const result = jq.evaluate(inputs as JsonValue, wrapped);
  if (!result.ok) return result;
  const [answers] = result.values;
  if (!Array.isArray(answers) || answers.length !== inputs.length) return { ok: false, error: 'jq gave no answer per input', failure: 'crash' };
  return { ok: true, outputs: answers.map(readAnswer) };
}

function readAnswer(answer: JsonValue): FirstOutput {
  const record = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? answer : {};
  if ('value' in record) return { kind: 'value', value: record.value ?? null };
  if ('error' in record) return { kind: 'error', error: String(record.error) };
  return { kind: 'none' };
}

/** The service's reading of a condition: it holds when its first output is neither false nor null. */
export function holds(output: FirstOutput): boolean {
  return output.kind === 'value' && output.value !== false && output.value !== null;
}
