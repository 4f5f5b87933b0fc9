/**
 * Issue 39: which expressions are worth running, chosen by what they read, never by a word in
 * their text. An expression that reads only fixed paths to plain values (`.properties.language`,
 * `.entity.identifier`) cannot see team values except through the team paths the references
 * already name; one that reads its input as a whole (`..`, `.`, `.[$k]`, `tojson`, `to_entries`,
 * `getpath`, a format, a variable bound to something else than a path) can, whatever it spells,
 * so it is run and running decides. A stage piped from a fixed plain path sees only that value.
 */
import type { Token } from '../jq/lexer.js';
import { walkReads, type Taint } from './user-reads.js';

/** Objects that hold team values somewhere below them: reading one as a whole may read teams. */
const CONTAINERS = new Set(['entity', 'entities', 'properties', 'relations', 'user', 'trigger', 'by', 'diff', 'before', 'after', 'results', 'run', 'context', 'form', 'inputs', 'payload', 'event']);

/** A path that ends at an object holding team values (or a policy query's results). */
const endsAtContainer = (segments: readonly string[]) => segments.length === 0 || CONTAINERS.has(segments.at(-1)!) || segments.at(-2) === 'results';

/** A path to a container holds team values; one to a plain value hands on only that value. */
const teamPath = (segments: readonly string[]): Taint => (endsAtContainer(segments.filter((segment) => segment !== '[]')) ? 'holds' : 'none');

/** Whether the expression (or its tokens, lexed already) may read team values by other means than fixed paths; true where unsure (its jq cannot be read). */
export function readsBeyondFixedPaths(expression: string | readonly Token[]): boolean {
  if (typeof expression === 'string') return walkReads(expression, teamPath) !== 'none';
  // Tokens are an expression's own (references.ts lexes each text once), and asked for in both of the rules' runs.
  let found = walked.get(expression);
  if (found === undefined) walked.set(expression, (found = walkReads(expression, teamPath) !== 'none'));
  return found;
}

const walked = new WeakMap<readonly Token[], boolean>();
