import type { JsonValue } from '../model/json.js';
import type { EvaluationFailure, JqEngine } from './engine.js';

/** What one expression gave on one input: its first output, none, or jq's runtime error. */
export type FirstOutput = { kind: 'value'; value: JsonValue } | { kind: 'none' } | { kind: 'error'; error: string };

export type FirstOutputs = { ok: true; outputs: FirstOutput[] } | { ok: false; error: string; failure?: EvaluationFailure };

/**
 * Ours: expressions per request to jq. Thousands of users times thousands of conditions must not
 * cost one worker round trip each, nor hold one copy of every input per expression in the
 * engine's cache; a request that fails is retried one expression at a time, so a larger batch
 * only costs more when an expression loops.
 */
const BATCH_EXPRESSIONS = 64;
/** Ours: and at most this much expression text per request. */
const BATCH_CHARS = 64 * 1024;

/**
 * One expression's first output on one input, as the service reads a condition: `limit(1; …)`
 * stops at the first output; `try` keeps one input's runtime error from hiding the other answers.
 * The newlines keep a trailing `# comment` from swallowing the closing parenthesis.
 */
const wrap = (expression: string) =>
  `(try ([limit(1; (\n${expression}\n))] | if length == 0 then {none: true} else {value: .[0]} end) catch {error: (. | tostring)})`;

/**
 * The first output of each expression on each of `inputs`, by expression. The inputs go to jq
 * once per batch of expressions (`map([e1, e2, …])`); an expression jq does not compile, or a
 * batch that times out or crashes, is answered one expression at a time so only the culprit fails.
 */
export function firstOutputsOfEach(jq: JqEngine, expressions: readonly string[], inputs: readonly JsonValue[]): Map<string, FirstOutputs> {
  const results = new Map<string, FirstOutputs>();
  const runnable: string[] = [];
  for (const expression of new Set(expressions)) {
    const compiled = jq.validate(expression);
    if (compiled.ok) runnable.push(expression);
    else results.set(expression, compiled);
  }
  for (const batch of batches(runnable)) {
    const answered = inputs.length === 0 ? batch.map((): FirstOutput[] => []) : runBatch(jq, batch, inputs);
    if (answered) batch.forEach((expression, index) => results.set(expression, { ok: true, outputs: answered[index]! }));
    else {
      for (const expression of batch) {
        const alone = runBatch(jq, [expression], inputs);
        results.set(expression, alone ? { ok: true, outputs: alone[0]! } : failureOf(jq, expression, inputs));
      }
    }
  }
  return results;
}

/** Answers per expression, or undefined when jq gave none for the batch. */
function runBatch(jq: JqEngine, batch: readonly string[], inputs: readonly JsonValue[]): FirstOutput[][] | undefined {
  const result = jq.evaluate(inputs as JsonValue, `map([${batch.map(wrap).join(',\n')}])`);
  if (!result.ok) return undefined;
  const [answers] = result.values;
  if (!Array.isArray(answers) || answers.length !== inputs.length) return undefined;
  return batch.map((_, j) => answers.map((row) => readAnswer(Array.isArray(row) ? (row[j] ?? null) : null)));
}

/** Why jq gave no answer for one expression (the engine answers from its cache: it just ran it). */
function failureOf(jq: JqEngine, expression: string, inputs: readonly JsonValue[]): FirstOutputs {
  const result = jq.evaluate(inputs as JsonValue, `map([${wrap(expression)}])`);
  return result.ok ? { ok: false, error: 'jq gave no answer per input', failure: 'crash' } : result;
}

function* batches(expressions: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const expression of expressions) {
    if (batch.length > 0 && (batch.length >= BATCH_EXPRESSIONS || chars + expression.length > BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(expression);
    chars += expression.length;
  }
  if (batch.length > 0) yield batch;
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
