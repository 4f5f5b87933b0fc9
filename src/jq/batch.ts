/**
 * Many expressions in one jq request. jq-wasm starts jq afresh for every call (about 1 ms, the
 * same for `.` as for fifty expressions), so an org with thousands of distinct expressions pays
 * that per call, not for what jq computes. Programs built here put many expressions, or one
 * expression over many inputs, into one call. Their answers are only ever taken as a cache of
 * what the one-at-a-time calls would give; whatever a batch cannot answer for certain is left to
 * those calls (src/jq/engine.ts), so error texts and failures stay exactly theirs.
 */
import type { JsonValue } from '../model/json.js';
import { lexJq, type Token } from './lexer.js';

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
  let tokens: Token[];
  try {
    tokens = lexJq(expression);
  } catch {
    return false;
  }
  return tokens.length > 0 && balanced(tokens);
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

/** One input of an evaluation batch: expression `t` of the program, its `k`-th input `x`. */
export interface BatchInput {
  t: number;
  k: number;
  x: JsonValue;
}

/**
 * Runs expression `.t` on `.x` and prints `[t, k, [every output]]`, one line per input. An input
 * whose expression raises an error (or halts) prints no line, so it is answered one at a time.
 * The expression starts on the program's first line and sees `.x` exactly as a call on its own
 * would see the input; no variable of ours is in its scope.
 */
export function evaluationProgram(expressions: readonly string[]): string {
  const branches = expressions.map((expression, t) => `${t === 0 ? 'if' : 'elif'} .t == ${t} then (.x | [${expression}\n])`).join(' ');
  return `[.t, .k, (${branches} else error("no such expression") end)]`;
}

/** The inputs as jq's stdin: JSON texts separated by spaces, so no input changes the line count. */
export function batchStdin(inputs: readonly BatchInput[]): string {
  return inputs.map((input) => JSON.stringify(input)).join(' ');
}

/** The lines of a batch's output that answer an input of it, each once: `values` by `t` and `k`. */
export function parseBatchOutput(stdout: string, inputs: readonly BatchInput[]): { t: number; k: number; values: JsonValue[] }[] {
  const expected = new Set(inputs.map((input) => `${input.t}:${input.k}`));
  const answers: { t: number; k: number; values: JsonValue[] }[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (!Array.isArray(parsed) || parsed.length !== 3 || !Array.isArray(parsed[2])) continue;
    const [t, k, values] = parsed as [unknown, unknown, JsonValue[]];
    const key = `${String(t)}:${String(k)}`;
    if (typeof t !== 'number' || typeof k !== 'number' || !expected.delete(key)) continue;
    answers.push({ t, k, values });
  }
  return answers;
}
