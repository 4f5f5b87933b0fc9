/**
 * Which paths an expression reads from its input itself, at the top of its context (`.relations.x`
 * in a run's template reads the run, not an entity of it), as far as its text shows: no pipe before
 * them, nor a call whose arguments run on something else (`map(.team)` reads the elements).
 * Grouping, collecting and building (`( )`, `[ ]`, `{ }`, an index) keep the input; a binding
 * (`.a as $x | …`) keeps it too. Anything else (a call, `reduce`, a `def`) is not called rooted.
 */
import type { FieldPath } from '../jq/references.js';
import type { Token } from '../jq/lexer.js';

/** Keywords after which the input of what follows is not the expression's own. */
const NEW_INPUT = new Set(['reduce', 'foreach', 'def', 'label']);

/** The start offsets of the tokens read at the top of the input. */
export function rootedStarts(tokens: readonly Token[]): ReadonlySet<number> {
  const starts = new Set<number>();
  // One frame per open bracket: whether its input is the expression's, and whether a binding waits for its pipe.
  const frames: { rooted: boolean; binding: boolean }[] = [{ rooted: true, binding: false }];
  tokens.forEach((token, i) => {
    const frame = frames[frames.length - 1]!;
    if (frame.rooted) starts.add(token.start);
    if (token.type === 'punctuation' && '([{'.includes(token.value)) {
      const before = tokens[i - 1];
      const call = token.value === '(' && before?.type === 'identifier';
      frames.push({ rooted: frame.rooted && !call, binding: false });
    } else if (token.type === 'punctuation' && ')]}'.includes(token.value)) {
      if (frames.length > 1) frames.pop();
    } else if (token.type === 'keyword' && token.value === 'as') frame.binding = true;
    else if (token.type === 'keyword' && NEW_INPUT.has(token.value)) frame.rooted = false;
    else if (token.type === 'operator' && token.value === '|') {
      if (frame.binding) frame.binding = false;
      else frame.rooted = false;
    }
  });
  return starts;
}

/** Whether `path` is read from the top of the input (never one read through a variable). */
export const readAtRoot = (starts: ReadonlySet<number>, path: FieldPath): boolean => path.variable === undefined && starts.has(path.start);
