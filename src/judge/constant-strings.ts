/**
 * The strings an expression computes from its literals alone, as jq computes them: a title written
 * in pieces (`"Data" + " Science"`), in another case (`"QA" | ascii_downcase`), from code points
 * (`[81,65] | implode`) or encoded (`"cWE=" | @base64d`) is a string the expression compares with
 * as much as a literal is (issue 39: never a sample chosen from the text as written).
 */
import type { JqEngine } from '../jq/engine.js';
import { tryLexJq, type Token } from '../jq/lexer.js';

/** Ours: tokens after a literal (or a closed bracket) that a constant piece of an expression is read over. */
const MAX_CONSTANT_TOKENS = 8;
/** Ours: expressions whose strings are kept; a 10x org judges about 20,000. */
const MAX_KEPT = 5_000;
const constantsOf = new Map<string, string[]>();

/**
 * Every literal, and each piece that starts at a literal or at a bracket that opens a value (not an
 * index or a call's arguments) and ends where its parentheses close, before a `,`, `;` or a keyword,
 * run by jq on null. Pieces that read the input give no string on null.
 */
export function constantStrings(jq: JqEngine, expression: string): string[] {
  const known = constantsOf.get(expression);
  if (known) return known;
  const tokens = tryLexJq(expression) ?? [];
  const found = new Set<string>();
  const run = (start: Token, end: Token) => {
    const result = jq.evaluate(null, expression.slice(start.start, end.end));
    if (result.ok && result.values.length === 1 && typeof result.values[0] === 'string') found.add(result.values[0]);
  };
  tokens.forEach((token, i) => {
    let from = i;
    if (token.type === 'string') {
      if (token.interpolations) return;
      found.add(token.value);
    } else if (opensValue(tokens, i)) {
      from = closing(tokens, i);
      if (from < 0) return;
      run(token, tokens[from]!);
    } else return;
    let depth = 0;
    for (let k = from + 1; k < Math.min(tokens.length, from + MAX_CONSTANT_TOKENS); k++) {
      const next = tokens[k]!;
      if (next.type === 'keyword' || (depth === 0 && (next.value === ',' || next.value === ';'))) break;
      if (next.type === 'punctuation' && '([{'.includes(next.value)) depth++;
      if (next.type === 'punctuation' && ')]}'.includes(next.value) && --depth < 0) break;
      if (depth > 0 || next.type === 'operator') continue;
      run(token, next);
    }
  });
  const strings = [...found];
  // A planning engine's answers are not jq's: never kept.
  if (jq.plansOnly) return strings;
  if (constantsOf.size >= MAX_KEPT) constantsOf.clear();
  constantsOf.set(expression, strings);
  return strings;
}

/** A `[` or `(` that starts a value of its own: not `.a[0]`, `f(x)` or `$v[1]`, which read what stands before. */
function opensValue(tokens: readonly Token[], i: number): boolean {
  const token = tokens[i]!;
  if (token.type !== 'punctuation' || (token.value !== '[' && token.value !== '(')) return false;
  const before = tokens[i - 1];
  if (before === undefined) return true;
  if (before.type === 'operator' || before.type === 'keyword') return true;
  return before.type === 'punctuation' && '([{,;:'.includes(before.value);
}

/** The index of the bracket that closes the one at `i`, or -1. */
function closing(tokens: readonly Token[], i: number): number {
  let depth = 0;
  for (let k = i; k < tokens.length; k++) {
    const value = tokens[k]!;
    if (value.type !== 'punctuation') continue;
    if ('([{'.includes(value.value)) depth++;
    if (')]}'.includes(value.value) && --depth === 0) return k;
  }
  return -1;
}
