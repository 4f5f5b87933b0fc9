/**
 * Issue 39: which expressions are worth running, chosen by what they read, never by a word in
 * their text. An expression that reads only fixed paths to plain values (`.properties.language`,
 * `.entity.identifier`) cannot see team values except through the team paths the references
 * already name; one that reads its input as a whole (`..`, `.`, `.[$k]`, `tojson`, `to_entries`,
 * `getpath`, a format, a variable bound to something else than a path) can, whatever it spells,
 * so it is run and running decides. A stage piped from a fixed plain path sees only that value.
 */
import { tryLexJq, type Token } from '../jq/lexer.js';
import { BUILTIN_VARIABLES } from '../jq/references.js';
import { readPath } from './user-reads.js';

/** Objects that hold team values somewhere below them: reading one as a whole may read teams. */
const CONTAINERS = new Set(['entity', 'entities', 'properties', 'relations', 'user', 'trigger', 'by', 'diff', 'before', 'after', 'results', 'run', 'context', 'form', 'inputs', 'payload', 'event']);
/**
 * Builtins that ignore their input (constants, generators of their arguments alone). Any other
 * builtin given an input that is not a plain value (`contains({relations: …})`, `recurse`, `any`,
 * `select(…)`, which hands the input on) may read it whole: unknown means run it, and running decides.
 */
const IGNORES_INPUT = new Set(['true', 'false', 'null', 'empty', 'now', 'infinite', 'nan', 'halt', 'input_line_number', 'range', 'error', 'not']);

const isPunct = (token: Token | undefined, value: string) => token?.type === 'punctuation' && token.value === value;
const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);

/** Whether the expression (or its tokens, lexed already) may read team values by other means than fixed paths; true where unsure (its jq cannot be read). */
export function readsBeyondFixedPaths(expression: string | readonly Token[]): boolean {
  const tokens = typeof expression === 'string' ? tryLexJq(expression) : expression;
  if (tokens === undefined) return true;
  const bound = new Map<string, boolean>();
  let inputPlain = false;
  const stages = topLevelStages(tokens);
  for (const [n, stage] of stages.entries()) {
    // A stage that is one path to a plain value hands it on: what follows sees only that value. A path
    // to a container (`.entity.relations`) is read whole, whatever follows: `has("owning_team")`,
    // `length` or `.owning_team` after it read what the migration changes there.
    if (n < stages.length - 1 && isPlainChain(stage)) {
      inputPlain = true;
      continue;
    }
    if (stage.some((t) => t.type === 'keyword' && (t.value === 'def' || t.value === 'label'))) return true;
    const as = stage.findIndex((t) => t.type === 'keyword' && t.value === 'as');
    if (as >= 0) {
      // `X as $v | …`: the stage after it sees this stage's input, and `$v` is X.
      const source = stage.slice(0, as);
      if (readsWhole(source, inputPlain, bound)) return true;
      const target = stage[as + 1];
      if (target?.type !== 'variable') return true;
      bound.set(target.value, inputPlain || isPlainChain(source));
      continue;
    }
    if (readsWhole(stage, inputPlain, bound)) return true;
    inputPlain = inputPlain || isPlainChain(stage) || isPlainVariable(stage, bound) || yieldsTruth(stage);
  }
  return false;
}

/** The expression split at its top-level pipes (outside brackets and `if … end`). */
function topLevelStages(tokens: readonly Token[]): Token[][] {
  const stages: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.type === 'punctuation' && OPEN.has(token.value)) depth++;
    if (token.type === 'punctuation' && CLOSE.has(token.value)) depth--;
    if (token.type === 'keyword' && token.value === 'if') depth++;
    if (token.type === 'keyword' && token.value === 'end') depth--;
    if (depth === 0 && token.type === 'operator' && token.value === '|') stages.push([]);
    else stages[stages.length - 1]!.push(token);
  }
  return stages;
}

/** The field names of the chain at `i` (`.a.b`, `.["a"]`, `$v.a`, with `[]`, `[0]`, `?`), and the index after it. */
function chainAt(tokens: readonly Token[], i: number): { segments: string[]; next: number } {
  const { segments, next } = readPath(tokens, tokens[i]?.type === 'field' ? i : i + 1);
  return { segments: segments.filter((segment) => segment !== '[]'), next: Math.max(next, i + 1) };
}

/** `.diff.before == null`, `null != .entity`: whether it is there, not what it holds. */
function comparedWithNull(tokens: readonly Token[], start: number, next: number): boolean {
  const isNull = (token: Token | undefined) => token?.type === 'identifier' && token.value === 'null';
  const isEquality = (token: Token | undefined) => token?.type === 'operator' && (token.value === '==' || token.value === '!=');
  return (isEquality(tokens[next]) && isNull(tokens[next + 1])) || (isEquality(tokens[start - 1]) && isNull(tokens[start - 2]));
}

const TRUTH_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** The stage gives only true or false (`.a != null`, `x and y`): what follows it sees no team value. */
function yieldsTruth(stage: readonly Token[]): boolean {
  let depth = 0;
  let compares = false;
  for (const token of stage) {
    if ((token.type === 'punctuation' && OPEN.has(token.value)) || (token.type === 'keyword' && token.value === 'if')) depth++;
    if ((token.type === 'punctuation' && CLOSE.has(token.value)) || (token.type === 'keyword' && token.value === 'end')) depth--;
    if (depth !== 0) continue;
    if ((token.type === 'operator' && TRUTH_OPERATORS.has(token.value)) || (token.type === 'keyword' && (token.value === 'and' || token.value === 'or'))) compares = true;
    // Another value beside the comparison (`a == b, .`, `a == b // .`) may be anything.
    if ((token.type === 'punctuation' && token.value === ',') || (token.type === 'operator' && token.value === '//') || (token.type === 'keyword' && token.value === 'as')) return false;
  }
  return compares;
}

/** A path that ends at an object holding team values (or a policy query's results). */
const endsAtContainer = (segments: readonly string[]) => segments.length === 0 || CONTAINERS.has(segments.at(-1)!) || segments.at(-2) === 'results';

/** The stage is one fixed path (`.a.b`, `.["a"][]`). */
const isChain = (stage: readonly Token[]) => (stage[0]?.type === 'field' || stage[0]?.type === 'dot') && chainAt(stage, 0).next === stage.length;

/** The stage is a variable bound to a plain value (`$l`, `$l.x`): what follows sees only that value. */
const isPlainVariable = (stage: readonly Token[], bound: ReadonlyMap<string, boolean>) =>
  stage[0]?.type === 'variable' && bound.get(stage[0].value) === true && readPath(stage, 1).next === stage.length;

/** The stage is one fixed path to a plain value: what follows it sees only that value. */
const isPlainChain = (stage: readonly Token[]) => isChain(stage) && !endsAtContainer(chainAt(stage, 0).segments);

function readsWhole(tokens: readonly Token[], inputPlain: boolean, bound: ReadonlyMap<string, boolean>): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'string') {
      if ((token.interpolations ?? []).some((inner) => readsWhole(inner, inputPlain, bound))) return true;
      continue;
    }
    if (token.type === 'variable') {
      if (BUILTIN_VARIABLES.has(token.value)) continue;
      const plain = bound.get(token.value);
      const { segments: path, next } = readPath(tokens, i + 1);
      const segments = path.filter((segment) => segment !== '[]');
      if (plain !== true && (segments.length === 0 || endsAtContainer(segments))) return true;
      i = Math.max(i, next - 1);
      continue;
    }
    if (inputPlain) continue;
    if (token.type === 'recurse' || token.type === 'format') return true;
    if (token.type === 'identifier' && !IGNORES_INPUT.has(token.value) && !isPunct(tokens[i + 1], ':')) return true;
    if (token.type === 'field' || token.type === 'dot') {
      const { segments, next } = chainAt(tokens, i);
      if (endsAtContainer(segments) && !comparedWithNull(tokens, i, next)) return true;
      i = next - 1;
    }
  }
  return false;
}
