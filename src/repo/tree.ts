import type { SourceText } from './source-text.js';

/**
 * One loose tree for every format we read (HCL, JS/TS, Python, JSON, YAML): enough structure to
 * find keys, lists and calls, with the span each came from. It is not an AST of any language.
 */
export interface Span {
  source: SourceText;
  start: number;
  end: number;
}

export interface StringNode {
  kind: 'string';
  value: string;
  span: Span;
  /** How it was written: the rewrite keeps the same quoting. `line` = YAML, whose spans are whole lines. */
  quote: '"' | "'" | '`' | 'heredoc' | 'line';
  /** True when `value` is the raw text between `contentStart` and `contentEnd` (no escapes). */
  exact: boolean;
  contentStart: number;
  contentEnd: number;
}

export interface ListNode {
  kind: 'list';
  items: TreeNode[];
  span: Span;
}

export interface Entry {
  key: string;
  keySpan: Span;
  value: TreeNode;
  /** From the key to the end of the value. */
  span: Span;
}

export interface ObjectNode {
  kind: 'object';
  entries: Entry[];
  /** Positional items: statements at the top of a script, positional call arguments. */
  items: TreeNode[];
  /** HCL block labels: `resource "port_blueprint" "service" {` → ["port_blueprint", "service"]. */
  labels?: string[];
  span: Span;
}

export interface CallNode {
  kind: 'call';
  /** The dotted callee as written: `port.Blueprint`, `jsonencode`. */
  callee: string;
  calleeSpan: Span;
  args: ObjectNode;
  span: Span;
}

/** A dotted reference: `port_team.platform.name`, `var.teams`, `local.x`. */
export interface RefNode {
  kind: 'ref';
  path: string;
  span: Span;
}

/** Anything else: numbers, booleans, operators, compound expressions (`parts` keeps what is inside). */
export interface OtherNode {
  kind: 'other';
  span: Span;
  parts: TreeNode[];
}

export type TreeNode = StringNode | ListNode | ObjectNode | CallNode | RefNode | OtherNode;

export const spanText = (span: Span): string => span.source.text.slice(span.start, span.end);
export const spanLine = (span: Span): number => span.source.lineOf(span.start);
/** Where a span is, as a file finding's location says it (src/file-location.ts reads it back): `path:line`. */
export const spanLocation = (span: Span): string => `${span.source.path}:${spanLine(span)}`;

export function findEntry(object: ObjectNode, ...keys: string[]): Entry | undefined {
  const wanted = new Set(keys.map(normalizeKey));
  return object.entries.find((entry) => wanted.has(normalizeKey(entry.key)));
}

/** `team_inheritance`, `teamInheritance`, `"$team"` → `teaminheritance`, `team`: one spelling per key. */
export function normalizeKey(key: string): string {
  return key.replace(/[_$-]/g, '').toLowerCase();
}

/**
 * The nodes directly inside `node`, in the order they are written: an object's values, then its
 * positional items; a list's items; a call's arguments; an expression's parts.
 */
export function treeChildren(node: TreeNode): readonly TreeNode[] {
  switch (node.kind) {
    case 'object':
      return [...node.entries.map((entry) => entry.value), ...node.items];
    case 'list':
      return node.items;
    case 'call':
      return [node.args];
    case 'other':
      return node.parts;
    default:
      return [];
  }
}

export function stringValue(node: TreeNode | undefined): string | undefined {
  return node?.kind === 'string' ? node.value : undefined;
}
