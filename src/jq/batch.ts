/**
 * Many expressions in one jq request. jq-wasm starts jq afresh for every call (about 1 ms, the
 * same for `.` as for fifty expressions), so an org with thousands of distinct expressions pays
 * that per call, not for what jq computes. Programs built here put many expressions, or one
 * expression over many inputs, into one call. Their answers are only ever taken as a cache of
 * what the one-at-a-time calls would give; whatever a batch cannot answer for certain is left to
 * those calls (src/jq/engine.ts), so error texts and failures stay exactly theirs.
 */
import { isObject, type JsonValue } from '../model/json.js';
import { parsedJson } from '../parse-json.js';
import { tryLexJq, type Token } from './lexer.js';

/**
 * Whether an expression can share a program with others. It must stay inside the brackets we put
 * around it: its own brackets (by our lexer) balance and never close one of ours, so jq parses it
 * whole as one term, with its `def`s and variables scoped to it. Comments are left out (a comment
 * continued by a trailing backslash would swallow our closing bracket, and our lexer's reading of
 * it is the one place it could differ from jq's); so are `input`/`inputs` (they would read the next
 * batched input), `$__loc__` (line numbers) and `$__…` names, and an empty expression (`[]` is not `.`).
 */
export function batchable(expression: string): boolean {
  if (expression.includes('#') || expression.includes('input') || expression.includes('$__') || expression.includes('__loc__')) return false;
  const tokens = tryLexJq(expression);
  return tokens !== undefined && tokens.length > 0 && balanced(tokens);
}

const OPENING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function balanced(tokens: readonly Token[]): boolean {
  const stack: string[] = [];
  for (const token of tokens) {
    if (token.type === 'string' && !(token.interpolations ?? []).every((inner) => balanced(inner))) return false;
    if (token.type !== 'punctuation') continue;
    if (token.value === '(' || token.value === '[' || token.value === '{') stack.push(token.value);
    else if (token.value in OPENING && stack.pop() !== OPENING[token.value]) return false;
  }
  return stack.length === 0;
}

/**
 * Compiles (exit 0) exactly when each expression compiles in the engine's own check,
 * `empty | (\n<expression>\n)`: the same wrapper, joined by commas; nothing is run.
 */
export function validationProgram(expressions: readonly string[]): string {
  return `empty | (${expressions.map((expression) => `(\n${expression}\n)`).join(', ')})`;
}

/**
 * One input of an evaluation batch: the `i`-th distinct input `x`, and the expressions `t` (their
 * places in the program) to run on it. Expressions of one batch mostly run on the same samples,
 * so each input travels, and is parsed, once.
 */
export interface BatchInput {
  i: number;
  t: number[];
  /** The input as JSON text. */
  x: string;
}

/**
 * Runs each expression `t` of an input on its `x` and prints `[t, i, [every output]]`, or when it
 * raised an error there `[t, i, {"e": message}]` for a string message, `[t, i, null]` for another
 * (that one is then asked alone, for jq's own text). The variables are ours, and safe: an expression only ever runs here after jq compiled
 * it alone, so it refers to no variable it does not bind itself, and `batchable` keeps out `$__…`
 * names. The expression starts on the program's first line, as when it runs alone.
 */
export function evaluationProgram(expressions: readonly string[]): string {
  return `.i as $__tma_i | .x as $__tma_x | .t[] as $__tma_t | [$__tma_t, $__tma_i, ($__tma_x | try ${dispatch(expressions, 0)} catch (if type == "string" then {e: .} else null end))]`;
}

/** Picks expression `$__tma_t` by halving, so a batch of fifty costs six comparisons per run, not fifty. */
function dispatch(expressions: readonly string[], offset: number): string {
  if (expressions.length === 1) return `[${expressions[0]}\n]`;
  const half = Math.ceil(expressions.length / 2);
  return `(if $__tma_t < ${offset + half} then ${dispatch(expressions.slice(0, half), offset)} else ${dispatch(expressions.slice(half), offset + half)} end)`;
}

/** The inputs as jq's stdin: JSON texts separated by spaces, so no input changes the line count. */
export function batchStdin(inputs: readonly BatchInput[]): string {
  return inputs.map((input) => `{"i":${input.i},"t":${JSON.stringify(input.t)},"x":${input.x}}`).join(' ');
}

/** Expression `t` on input `i`: every output, or the string message of the error it raised. */
export type BatchAnswer = { t: number; i: number } & ({ values: JsonValue[] } | { error: string });

/** The lines of a batch's output that answer an expression on an input of it, each once. */
export function parseBatchOutput(stdout: string, inputs: readonly BatchInput[]): BatchAnswer[] {
  const expected = new Set(inputs.flatMap((input) => input.t.map((t) => `${t}:${input.i}`)));
  const answers: BatchAnswer[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parsedJson(line);
    if (!Array.isArray(parsed) || parsed.length !== 3) continue;
    const [t, i, answer] = parsed as [unknown, unknown, JsonValue];
    const found = Array.isArray(answer) ? { values: answer } : isObject(answer) && typeof answer.e === 'string' ? { error: answer.e } : undefined;
    if (found === undefined || typeof t !== 'number' || typeof i !== 'number' || !expected.delete(`${t}:${i}`)) continue;
    answers.push({ t, i, ...found });
  }
  return answers;
}
