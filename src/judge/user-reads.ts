/**
 * Which parts of the user a condition reads (issue 33), decided from the paths it uses, so that
 * people whose inputs to it are equal share one evaluation: a condition that reads only team
 * values runs once per distinct team list, not once per person. Conservative: whatever this
 * cannot tell (a whole-value read of the context, a variable, `def`, `reduce`, a builtin it does
 * not know on the context) means "reads everything", and then every person is a context of
 * their own, as without sharing.
 *
 * What a condition sees (src/judge/user-model.ts USER_MODEL_JQ): `{user, trigger: {by: {user},
 * user}}`, the user being `{team, teamsIdentifiers, teams, email?, roles?}`. The only way to reach
 * the user is from that root, so the analysis follows where the root (or a value holding it) flows: a field
 * path from it names what it reads (`.user.email`); anything else done to it (`tostring`, `.[]`,
 * `keys`, a comparison of the whole) reads everything. A value derived from a named field never
 * holds the rest of the user, so what is done to it reads nothing more.
 */
import { tryLexJq, type Token } from '../jq/lexer.js';
import { BUILTIN_VARIABLES } from '../jq/references.js';

/** `teams` stands for every team-bearing field (`team`, `teamsIdentifiers`, `teams`). */
export type UserField = 'teams' | 'email' | 'roles';
export type UserReads = { kind: 'fields'; fields: ReadonlySet<UserField> } | { kind: 'everything' };

/** What a value may hold: nothing of the context, the context itself, or something holding it. */
export type Taint = 'none' | 'root' | 'holds';

class ReadsEverything extends Error {}
export const everything = (): never => {
  throw new ReadsEverything();
};

const FIELD_OF: Readonly<Record<string, UserField>> = { team: 'teams', teamsIdentifiers: 'teams', teams: 'teams', email: 'email', roles: 'roles' };

/** Builtins that do not read their input (`not` reads only whether it is false or null: the context never is). */
const IGNORE_INPUT = new Set(['true', 'false', 'null', 'empty', 'not', 'now', 'env', 'infinite', 'nan', 'halt', 'input_line_number']);
const COMPARING = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%']);

export function userFieldsRead(expression: string): UserReads {
  const fields = new Set<UserField>();
  const walked = walkReads(expression, (segments) => userPath(segments, fields));
  // A condition that gives the context (or the user) itself back is taken to read it all: the safe side.
  return walked !== 'none' ? { kind: 'everything' } : { kind: 'fields', fields };
}

/**
 * What a path from the context's root reads: `none` for a value that holds nothing more of the
 * context (a named field), `holds` for one that does, where anything but passing it on reads it
 * whole. A rule may also throw `everything()`.
 */
export type PathRule = (segments: readonly string[]) => Taint;

/**
 * The one walker over what an expression does with its input (user-reads here, team reach in
 * team-reach.ts): `everything` where it reads the input whole or cannot be followed, else the
 * taint of its output. `expression` may be its tokens, lexed already.
 */
export function walkReads(expression: string | readonly Token[], rule: PathRule): Taint | 'everything' {
  const tokens = typeof expression === 'string' ? tryLexJq(expression) : expression;
  if (tokens === undefined) return 'everything';
  // Brackets (and `if … end`) that do not pair up: jq will not compile it, and nothing here can be told.
  let depth = 0;
  for (const token of tokens) if ((depth += opens(token) ? 1 : closes(token) ? -1 : 0) < 0) return 'everything';
  if (depth !== 0) return 'everything';
  try {
    return pipeline(tokens, 'root', { path: rule, bound: new Map() });
  } catch (error) {
    if (error instanceof ReadsEverything) return 'everything';
    throw error;
  }
}

/** The path rule and the variables bound so far (`X as $v`: `$v` holds what X holds). */
interface Walk {
  path: PathRule;
  bound: Map<string, Taint>;
}

const isPunct = (token: Token | undefined, value: string) => token?.type === 'punctuation' && token.value === value;
const opens = (token: Token) => (token.type === 'punctuation' && '([{'.includes(token.value)) || (token.type === 'keyword' && token.value === 'if');
const closes = (token: Token) => (token.type === 'punctuation' && ')]}'.includes(token.value)) || (token.type === 'keyword' && token.value === 'end');

/** Index just past the bracket (or `if … end`) opened at `start`. */
function closing(tokens: readonly Token[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    if (opens(tokens[i]!)) depth++;
    else if (closes(tokens[i]!) && --depth === 0) return i + 1;
  }
  return everything();
}

/** `tokens` cut at the top-level tokens `cut` says are separators. */
function split(tokens: readonly Token[], cut: (token: Token) => boolean): { parts: Token[][]; separators: Token[] } {
  const parts: Token[][] = [[]];
  const separators: Token[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (opens(token)) depth++;
    else if (closes(token)) depth--;
    if (depth === 0 && !opens(token) && !closes(token) && cut(token)) {
      parts.push([]);
      separators.push(token);
    } else parts[parts.length - 1]!.push(token);
  }
  return { parts, separators };
}

const worst = (a: Taint, b: Taint): Taint => (a === 'none' ? b : b === 'none' ? a : a === b ? a : 'holds');

/** `a | b | c`: each part's input is the previous part's output. */
function pipeline(tokens: readonly Token[], input: Taint, walk: Walk): Taint {
  let value = input;
  for (const part of split(tokens, (t) => t.type === 'operator' && t.value === '|').parts) {
    // A value derived only from named fields holds nothing more of the user: nothing after it reads any.
    if (value === 'none') return 'none';
    const as = topLevelAs(part);
    if (as < 0) {
      value = terms(part, value, walk);
      continue;
    }
    // `X as $v | …`: what follows sees this part's input, and `$v` holds what X holds. A pattern (`{a: $x}`) is not followed.
    const target = part[as + 1];
    if (target?.type !== 'variable' || as + 2 !== part.length) everything();
    walk.bound.set(target!.value, worst(walk.bound.get(target!.value) ?? 'none', terms(part.slice(0, as), value, walk)));
  }
  return value;
}

/** Index of an `as` outside brackets, or -1. */
function topLevelAs(tokens: readonly Token[]): number {
  let depth = 0;
  for (const [i, token] of tokens.entries()) {
    if (opens(token)) depth++;
    else if (closes(token)) depth--;
    else if (depth === 0 && token.type === 'keyword' && token.value === 'as') return i;
  }
  return -1;
}

/** Terms joined by `,`, `//`, `and`, `or`, comparisons and arithmetic, `try … catch`, a slice's `:`: each runs on the same input. */
function terms(tokens: readonly Token[], input: Taint, walk: Walk): Taint {
  // `:` only inside a slice's brackets (`.[1:2]`): both bounds run on the same input.
  const { parts, separators } = split(tokens, (t) => t.type === 'operator' || isPunct(t, ',') || isPunct(t, ':') || (t.type === 'keyword' && ['and', 'or', 'try', 'catch'].includes(t.value)));
  let output: Taint = 'none';
  let compared = false;
  const isNull = (part: readonly Token[] | undefined) => part?.length === 1 && part[0]!.type === 'identifier' && part[0]!.value === 'null';
  const isEquality = (token: Token | undefined) => token?.type === 'operator' && (token.value === '==' || token.value === '!=');
  parts.forEach((part, i) => {
    const before = separators[i - 1];
    const after = separators[i];
    if (before?.type === 'operator' && !COMPARING.has(before.value) && before.value !== '//') everything(); // assignments, `?//`
    compared ||= [before, after].some((s) => s?.type === 'operator' && COMPARING.has(s.value));
    // What `catch` receives is an error's message, which may be a value holding the context.
    const partInput = before?.type === 'keyword' && before.value === 'catch' && input !== 'none' ? 'holds' : input;
    const value = term(part, partInput, walk);
    // `.diff.before == null`: whether it is there, not what it holds.
    const withNull = (isEquality(before) && isNull(parts[i - 1])) || (isEquality(after) && isNull(parts[i + 1]));
    if (value !== 'none' && compared && !withNull) everything(); // the whole context compared or added
    // A comparison gives true or false; `and`/`or` too: nothing of the context.
    if (!compared && !(before?.type === 'keyword' && (before.value === 'and' || before.value === 'or')) && !(after?.type === 'keyword' && (after.value === 'and' || after.value === 'or'))) output = worst(output, value);
  });
  return output;
}

/** A primary (path, call, literal, bracket, `if`) and its postfixes. */
function term(tokens: readonly Token[], input: Taint, walk: Walk): Taint {
  if (tokens.length === 0 || input === 'none') return 'none';
  let i = 0;
  let value: Taint;
  const first = tokens[0]!;
  if (first.type === 'field' || (first.type === 'dot' && bracketKey(tokens, 1))) {
    const chain = readPath(tokens, first.type === 'field' ? 0 : 1);
    value = path(chain.segments, input, walk);
    i = chain.next;
  } else if (first.type === 'dot' || first.type === 'recurse') {
    return everything(); // the context itself, iterated, indexed or recursed into
  } else if (first.type === 'variable') {
    const bound = walk.bound.get(first.value);
    if (!BUILTIN_VARIABLES.has(first.value) && bound === undefined) everything();
    value = bound ?? 'none';
    i = 1;
  } else if (first.type === 'number') {
    value = 'none';
    i = 1;
  } else if (first.type === 'string') {
    interpolations(first, input, walk);
    value = 'none';
    i = 1;
  } else if (first.type === 'format') {
    if (tokens[1]?.type !== 'string') everything(); // `@json` of the input
    interpolations(tokens[1]!, input, walk);
    value = 'none';
    i = 2;
  } else if (first.type === 'keyword' && first.value === 'if') {
    i = closing(tokens, 0);
    value = conditional(tokens.slice(1, i - 1), input, walk);
  } else if (first.type === 'keyword') {
    return everything(); // `def`, `reduce`, `foreach`, `label`…: bindings this does not follow
  } else if (first.type === 'identifier') {
    const args = isPunct(tokens[1], '(') ? closing(tokens, 1) : 1;
    value = call(first.value, args > 1 ? split(tokens.slice(2, args - 1), (t) => isPunct(t, ';')).parts : [], input, walk);
    i = args;
  } else if (isPunct(first, '(')) {
    i = closing(tokens, 0);
    value = pipeline(tokens.slice(1, i - 1), input, walk);
  } else if (isPunct(first, '[')) {
    i = closing(tokens, 0);
    value = pipeline(tokens.slice(1, i - 1), input, walk) === 'none' ? 'none' : 'holds';
  } else if (isPunct(first, '{')) {
    i = closing(tokens, 0);
    value = object(tokens.slice(1, i - 1), input, walk);
  } else {
    return everything();
  }
  // Postfixes: `.a.b`, `["a"]`, `[f]`, `[]`, `?`, `as` (not followed).
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (isPunct(token, '?')) {
      i++;
    } else if (token.type === 'field' || (token.type === 'dot' && bracketKey(tokens, i + 1)) || bracketKey(tokens, i)) {
      const chain = readPath(tokens, token.type === 'dot' ? i + 1 : i);
      if (value === 'holds') everything();
      value = value === 'root' ? path(chain.segments, value, walk) : 'none';
      i = chain.next;
    } else if (token.type === 'dot' || isPunct(token, '[')) {
      if (value !== 'none') everything(); // the context iterated or indexed by a computed key
      const open = token.type === 'dot' ? i + 1 : i;
      if (!isPunct(tokens[open], '[')) everything();
      const end = closing(tokens, open);
      pipeline(tokens.slice(open + 1, end - 1), input, walk); // a computed key runs on the term's input
      i = end;
    } else {
      return everything();
    }
  }
  return value;
}

/** A field path from a value: what the rule says it reads from the root; nothing more from a named field. */
function path(segments: readonly string[], input: Taint, walk: Walk): Taint {
  if (input === 'none') return 'none';
  if (input === 'holds') return everything();
  return walk.path(segments);
}

/** A path of the user model: what it names, or everything when it stops at the user. */
function userPath(segments: readonly string[], fields: Set<UserField>): Taint {
  const [a, b, c, d] = segments;
  // The user is `.user`, and the run's `.trigger.by.user` and `.trigger.user`; `''` names no part of it.
  let named: string | undefined = '';
  if (a === 'user') named = b;
  else if (a === 'trigger' && b === 'by') named = c === 'user' ? d : c === undefined ? undefined : '';
  else if (a === 'trigger') named = b === 'user' ? c : b === undefined ? undefined : '';
  // `.user`, `.trigger`, `.trigger.by`, `.trigger.by.user`, `.trigger.user` as a whole: anything done to it but a null check reads it all.
  if (named === undefined) return 'holds';
  const field = FIELD_OF[named];
  if (field) fields.add(field);
  return 'none';
}

/** A chain of names from `start`: `.a.b["c"][]?[0]`. */
export function readPath(tokens: readonly Token[], start: number): { segments: string[]; next: number } {
  const segments: string[] = [];
  let i = start;
  for (;;) {
    const token = tokens[i];
    if (token?.type === 'field') {
      segments.push(token.value);
      i++;
      continue;
    }
    if (token?.type === 'dot' && bracketKey(tokens, i + 1)) {
      i++;
      continue;
    }
    const key = bracketKey(tokens, i);
    if (key) {
      segments.push(key.value);
      i = key.next;
      continue;
    }
    // Iterating or indexing what a named field holds reads no more of the user.
    if (segments.length > 0 && isPunct(token, '[') && (isPunct(tokens[i + 1], ']') || (tokens[i + 1]?.type === 'number' && isPunct(tokens[i + 2], ']')))) {
      i += isPunct(tokens[i + 1], ']') ? 2 : 3;
      segments.push('[]');
      continue;
    }
    if (isPunct(token, '?')) {
      i++;
      continue;
    }
    return { segments, next: i };
  }
}

function bracketKey(tokens: readonly Token[], i: number): { value: string; next: number } | undefined {
  const key = tokens[i + 1];
  if (isPunct(tokens[i], '[') && key?.type === 'string' && !key.interpolations && isPunct(tokens[i + 2], ']')) return { value: key.value, next: i + 3 };
  return undefined;
}

function interpolations(token: Token, input: Taint, walk: Walk): void {
  for (const inner of token.interpolations ?? []) if (pipeline(inner, input, walk) !== 'none') everything(); // the context written into text
}

/** `if a then b elif c then d else e end` (without `if` and `end`): every part runs on the input. */
function conditional(tokens: readonly Token[], input: Taint, walk: Walk): Taint {
  const { parts, separators } = split(tokens, (t) => t.type === 'keyword' && ['then', 'elif', 'else'].includes(t.value));
  let output: Taint = separators.some((s) => s.value === 'else') ? 'none' : input; // no `else`: the input itself
  parts.forEach((part, i) => {
    const value = pipeline(part, input, walk);
    if (i > 0 && separators[i - 1]!.value !== 'elif') output = worst(output, value); // a branch, not a condition
  });
  return output;
}

/** `{a: f, "b": g, (h): i, c}`: keys and values run on the input; `{c}` reads `.c`. */
function object(tokens: readonly Token[], input: Taint, walk: Walk): Taint {
  let output: Taint = 'none';
  for (const entry of split(tokens, (t) => isPunct(t, ',')).parts) {
    if (entry.length === 0) continue;
    const colon = entry.findIndex((t) => isPunct(t, ':'));
    if (colon < 0) {
      const [name] = entry;
      if (entry.length !== 1 || !name || !(name.type === 'identifier' || name.type === 'keyword' || (name.type === 'string' && !name.interpolations))) everything();
      output = worst(output, path([name!.value], input, walk) === 'none' ? 'none' : 'holds');
      continue;
    }
    const key = entry.slice(0, colon);
    if (key.length === 1 && key[0]!.type === 'string') interpolations(key[0]!, input, walk);
    else if (!(key.length === 1 && (key[0]!.type === 'identifier' || key[0]!.type === 'keyword'))) term(key, input, walk);
    if (pipeline(entry.slice(colon + 1), input, walk) !== 'none') output = 'holds';
  }
  return output;
}

/**
 * A builtin called on a value holding the context. Known: those that only pass it to their
 * arguments (`select`, `first`, `any(g; c)`…) or ignore it; any other reads it whole.
 */
function call(name: string, args: readonly Token[][], input: Taint, walk: Walk): Taint {
  const run = (index: number, on: Taint = input) => pipeline(args[index]!, on, walk);
  if (IGNORE_INPUT.has(name) && args.length === 0) return 'none';
  switch (`${name}/${args.length}`) {
    case 'select/1':
      run(0);
      return input;
    case 'first/1':
    case 'last/1':
      return run(0);
    case 'limit/2':
      run(0);
      return run(1);
    case 'isempty/1':
      run(0);
      return 'none';
    case 'any/2':
    case 'all/2':
      run(1, run(0));
      return 'none';
    case 'IN/2':
      if (run(0) !== 'none' || run(1) !== 'none') everything();
      return 'none';
    case 'error/1':
      run(0);
      return 'none';
    default:
      return everything();
  }
}
