import { JqLexError, lexJq, type Token } from './lexer.js';

/** A chain of field accesses such as `.entity.relations.teams` → ["entity", "relations", "teams"]. */
export interface FieldPath {
  segments: string[];
  /** Set when the chain starts at a variable (`$user.team`); absent when it starts at the input. */
  variable?: string;
  start: number;
  end: number;
}

export interface StringLiteral {
  value: string;
  start: number;
  end: number;
  /** True for an object key (`{"team": …}`), which is a name, not a compared value. */
  isKey: boolean;
  /** True for `"…\(x)…"`: its text is only a template, never a value compared as a whole. */
  interpolated: boolean;
}

export interface JqReferences {
  paths: FieldPath[];
  strings: StringLiteral[];
  /** Keys of objects the expression builds (`{team: …}` → "team"). */
  objectKeys: string[];
}

/** `tokens`: the lexed expression, for other readers of it (team-reach.ts), so it is lexed once. */
export type ReferenceResult = { ok: true; references: JqReferences; tokens: readonly Token[] } | { ok: false; error: JqLexError };

/** jq's own variables: `$ENV.team` is the environment, never the org's team data. */
export const BUILTIN_VARIABLES: ReadonlySet<string> = new Set(['ENV', '__loc__', '__prog_args']);

/**
 * Segments that make the next one something other than the team meta property: a relation or
 * property name, or a user input (`.inputs.team` in a run, `.form.team` in a user input's jqQuery)
 * that merely is called team.
 */
const NAMESPACES = new Set(['relations', 'properties', 'inputs', 'form']);

/**
 * Segments that lead out of the org's data into a payload another system sent (a webhook's
 * `.body`, `.headers`, `.queryParams`; `.payload.body` in an automation forwarding one): a `team`
 * below them is the sender's field, whatever it is called, never the catalog's team.
 */
const EXTERNAL_PAYLOADS = new Set(['body', 'headers', 'queryParams']);

/**
 * What the expression reads, once per text: the rules' dry run and their real run, and the judge's
 * several readers of one expression, ask for it again and again. Never changed once made.
 */
export function extractReferences(source: string): ReferenceResult {
  let found = extracted.get(source);
  if (found === undefined) {
    if (extracted.size >= MAX_EXTRACTED) extracted.clear();
    extracted.set(source, (found = extract(source)));
  }
  return found;
}

const extracted = new Map<string, ReferenceResult>();
/** Ours: texts kept; a 10x org has about 20,000 distinct expressions and rule values. */
const MAX_EXTRACTED = 50_000;

function extract(source: string): ReferenceResult {
  let tokens: Token[];
  try {
    tokens = lexJq(source);
  } catch (error) {
    if (error instanceof JqLexError) return { ok: false, error };
    throw error;
  }
  const references: JqReferences = { paths: [], strings: [], objectKeys: [] };
  collect(tokens, references);
  return { ok: true, references, tokens };
}

function collect(tokens: readonly Token[], out: JqReferences): void {
  const enclosing = enclosingBrackets(tokens);
  // Variables bound to a chain (`.inputs as $i`): `$i.team` reads what `.inputs.team` reads.
  const bound = new Map<string, string[]>();
  let lastChain: { segments: string[]; next: number } | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const inObject = enclosing[i] === '{';
    const key = inObject && isObjectKey(tokens, i);
    if (token.type === 'keyword' && token.value === 'as' && tokens[i + 1]?.type === 'variable') {
      const name = tokens[i + 1]!.value;
      // Bound to anything but a plain chain, the name no longer stands for a path we know.
      if (lastChain && lastChain.next === i) bound.set(name, lastChain.segments);
      else bound.delete(name);
      continue;
    }
    if (token.type === 'string') {
      out.strings.push({ value: token.value, start: token.start, end: token.end, isKey: key, interpolated: token.interpolations !== undefined });
      for (const inner of token.interpolations ?? []) collect(inner, out);
    }
    if ((token.type === 'identifier' || token.type === 'keyword' || token.type === 'string') && key) {
      out.objectKeys.push(token.value);
    }
    // `{team}` and `{"team"}` are shorthand for `{team: .team}`: a key and a read of that field.
    if (inObject && isShorthandEntry(tokens, i) && (token.type === 'identifier' || token.type === 'keyword' || (token.type === 'string' && !token.interpolations))) {
      out.objectKeys.push(token.value);
      out.paths.push({ segments: [token.value], start: token.start, end: token.end });
      continue;
    }
    const chain = readChain(tokens, i);
    if (!chain) continue;
    const path = resolveBound(chain.path, bound);
    // `.inputs | .team` reads what `.inputs.team` reads: a chain piped from a namespace (a user
    // input, a relation, a property) stays in it, so it is read as one path, never as `.team`.
    const piped = isOperator(tokens[chain.next], '|') ? readChain(tokens, chain.next + 1) : undefined;
    if (piped && piped.path.variable === undefined && NAMESPACES.has(path.segments.at(-1) ?? '') && !BUILTIN_VARIABLES.has(path.variable ?? '')) {
      const joined: FieldPath = { segments: [...path.segments, ...piped.path.segments], start: path.start, end: piped.path.end };
      if (path.variable !== undefined) joined.variable = path.variable;
      out.paths.push(joined);
      lastChain = { segments: joined.segments, next: piped.next };
      i = piped.next - 1;
      continue;
    }
    out.paths.push(path);
    lastChain = { segments: path.segments, next: chain.next };
    // Strings consumed as bracket keys (`.["team"]`) are names, not compared values.
    i = chain.next - 1;
  }
}

/** `$i.team` with `$i` bound to `.inputs` is `.inputs.team`, still marked as read through `$i`. */
function resolveBound(path: FieldPath, bound: ReadonlyMap<string, string[]>): FieldPath {
  const prefix = path.variable !== undefined ? bound.get(path.variable) : undefined;
  return prefix ? { ...path, segments: [...prefix, ...path.segments] } : path;
}

const isOperator = (token: Token | undefined, value: string) => token?.type === 'operator' && token.value === value;

/** For each token, the innermost bracket (`(`, `[`, `{`) it sits in, or undefined at the top. */
function enclosingBrackets(tokens: readonly Token[]): (string | undefined)[] {
  const stack: string[] = [];
  return tokens.map((token) => {
    if (token.type === 'punctuation' && (token.value === ')' || token.value === ']' || token.value === '}')) stack.pop();
    const inside = stack[stack.length - 1];
    if (token.type === 'punctuation' && (token.value === '(' || token.value === '[' || token.value === '{')) stack.push(token.value);
    return inside;
  });
}

function isObjectKey(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  return isPunct(tokens[i + 1], ':') && (isPunct(before, '{') || isPunct(before, ','));
}

function isShorthandEntry(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  const after = tokens[i + 1];
  return (isPunct(before, '{') || isPunct(before, ',')) && (isPunct(after, ',') || isPunct(after, '}'));
}

const isPunct = (token: Token | undefined, value: string) => token?.type === 'punctuation' && token.value === value;

/** A chain starts at a field, at `.["name"]`, or at a variable followed by a field. */
function readChain(tokens: readonly Token[], i: number): { path: FieldPath; next: number } | undefined {
  const first = tokens[i];
  if (!first) return undefined;
  const segments: string[] = [];
  let variable: string | undefined;
  let j = i;
  if (first.type === 'field') {
    segments.push(first.value);
    j = i + 1;
  } else if (first.type === 'dot' && bracketKey(tokens, i + 1)) {
    const key = bracketKey(tokens, i + 1)!;
    segments.push(key.value);
    j = key.next;
  } else if (first.type === 'variable' && (tokens[i + 1]?.type === 'field' || bracketKey(tokens, i + 1))) {
    variable = first.value;
    j = i + 1;
  } else {
    return undefined;
  }
  let end = tokens[j - 1]!.end;
  for (;;) {
    const token = tokens[j];
    if (token?.type === 'field') {
      segments.push(token.value);
      end = token.end;
      j++;
      continue;
    }
    // jq 1.7+ also accepts a dot before brackets after a field: `.relations.["owning_team"]`.
    if (token?.type === 'dot' && isPunct(tokens[j + 1], '[')) {
      j++;
      continue;
    }
    const key = bracketKey(tokens, j);
    if (key) {
      segments.push(key.value);
      end = tokens[key.next - 1]!.end;
      j = key.next;
      continue;
    }
    // `[]`, `[0]` and `?` keep the chain going: `.relations.teams[]?` still reads the relation.
    if (isPunct(token, '[') && isPunct(tokens[j + 1], ']')) {
      j += 2;
      continue;
    }
    if (isPunct(token, '[') && tokens[j + 1]?.type === 'number' && isPunct(tokens[j + 2], ']')) {
      j += 3;
      continue;
    }
    if (isPunct(token, '?')) {
      j++;
      continue;
    }
    break;
  }
  const path: FieldPath = { segments, start: first.start, end };
  if (variable !== undefined) path.variable = variable;
  return { path, next: j };
}

/** `["key"]` at `i`: the key, and the token after the bracket. */
function bracketKey(tokens: readonly Token[], i: number): { value: string; next: number } | undefined {
  const key = tokens[i + 1];
  if (isPunct(tokens[i], '[') && key?.type === 'string' && !key.interpolations && isPunct(tokens[i + 2], ']')) return { value: key.value, next: i + 3 };
  return undefined;
}

/**
 * Paths that read the team meta property: a `team` segment that is not a relation or property
 * name (`.team`, `.entity.team`, `.user.team`, `.results.team`, `.diff.after.team`), and a user's
 * `teams` (`.user.teams`, `.trigger.by.user.teams`: `{name}` objects whose names are titles before
 * and after) and `teamsIdentifiers`. Which of them changes is what running them shows. A `team`
 * inside an external payload (`.payload.body.team`) is not one, nor is a relation named team: a
 * relation is read by what it targets (`relationPaths` over the relations the migration removes).
 */
export function teamMetaPaths(references: JqReferences): FieldPath[] {
  return references.paths.filter(
    (path) =>
      !BUILTIN_VARIABLES.has(path.variable ?? '') &&
      path.segments.some(
        (segment, index) =>
          (segment === 'team' && !NAMESPACES.has(path.segments[index - 1] ?? '') && !path.segments.slice(0, index).some((before) => EXTERNAL_PAYLOADS.has(before))) ||
          ((segment === 'teams' || segment === 'teamsIdentifiers') && path.segments[index - 1] === 'user'),
      ),
  );
}

/** Paths that read `.properties.<name>` for one of `propertyNames` (properties holding team values). */
export function propertyPaths(references: JqReferences, propertyNames: ReadonlySet<string>): FieldPath[] {
  if (propertyNames.size === 0) return [];
  return references.paths.filter(
    (path) => !BUILTIN_VARIABLES.has(path.variable ?? '') && path.segments.some((segment, index) => segment === 'properties' && propertyNames.has(path.segments[index + 1] ?? '')),
  );
}

/** Paths that read `.relations.<id>` for one of `relationIds`. */
export function relationPaths(references: JqReferences, relationIds: ReadonlySet<string>): { relation: string; path: FieldPath }[] {
  const found: { relation: string; path: FieldPath }[] = [];
  for (const path of references.paths) {
    path.segments.forEach((segment, index) => {
      const next = path.segments[index + 1];
      if (segment === 'relations' && next !== undefined && relationIds.has(next)) found.push({ relation: next, path });
    });
  }
  return found;
}

/** String literals compared against (object keys and interpolation templates excluded). */
export function valueStrings(references: JqReferences): StringLiteral[] {
  return references.strings.filter((literal) => !literal.isKey && !literal.interpolated);
}
