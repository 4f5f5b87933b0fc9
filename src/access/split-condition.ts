/**
 * A condition that reads the user's email (or roles) as well as teams makes every user a context
 * of their own: 2,000 users × 5,000 conditions is ten million runs. Most such conditions are
 * `<teams part> or <email part>` (or `and`): the part that reads no team value gives the same
 * before and after the migration, so the outcome can flip only where the teams part flips. Split
 * here, the teams part runs once per distinct team list and the rest only for the users whose
 * teams part flips.
 */
import { tryLexJq, type Token } from '../jq/lexer.js';

export interface SplitCondition {
  op: 'or' | 'and';
  /** The operands that may read team values, joined by `op` again. */
  teams: string;
  /** The operands that read no team value (the user's email, roles): the same in both worlds. */
  rest: string;
}

/** Keywords that, at the top level, make `a or b` anything but one boolean of two parts. */
const BINDING = new Set(['as', 'def', 'reduce', 'foreach', 'if', 'then', 'else', 'elif', 'end', 'try', 'catch', 'label', 'import', 'include']);
const LOOSER = new Set(['|', ',', '//', '?//', '=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);

/**
 * The top-level operands of `a or b or c` (or `and`), or undefined when the expression is not one
 * such chain (a pipe, a comma, a binding, both `and` and `or` at the top). `readsTeams` says which
 * operand text may read a team value; a chain whose operands all do, or none do, is not split.
 */
export function splitCondition(expression: string, readsTeams: (text: string) => boolean): SplitCondition | undefined {
  const tokens = tryLexJq(expression);
  if (!tokens) return undefined;
  let depth = 0;
  let op: 'or' | 'and' | undefined;
  const cuts: Token[] = [];
  for (const token of tokens) {
    if (token.type === 'punctuation' && '([{'.includes(token.value)) depth++;
    else if (token.type === 'punctuation' && ')]}'.includes(token.value)) depth--;
    if (depth !== 0) continue;
    if (token.type === 'keyword' && (token.value === 'or' || token.value === 'and')) {
      if (op !== undefined && op !== token.value) return undefined;
      op = token.value;
      cuts.push(token);
    } else if ((token.type === 'keyword' && BINDING.has(token.value)) || (token.type === 'operator' && LOOSER.has(token.value)) || (token.type === 'punctuation' && token.value === ',')) {
      return undefined;
    }
  }
  if (op === undefined) return undefined;
  const operands: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    operands.push(expression.slice(from, cut.start).trim());
    from = cut.end;
  }
  operands.push(expression.slice(from).trim());
  const reads = operands.map(readsTeams);
  const teams = operands.filter((_, i) => reads[i]);
  const rest = operands.filter((_, i) => !reads[i]);
  if (teams.length === 0 || rest.length === 0) return undefined;
  const join = (parts: string[]) => parts.map((part) => `(${part}\n)`).join(` ${op} `);
  return { op, teams: join(teams), rest: join(rest) };
}
