import { tokenize, type CodeToken, type Dialect } from './code-tokens.js';
import { SourceSyntaxError, type SourceText } from './source-text.js';
import { plural } from '../plural.js';
import type { CallNode, Entry, ListNode, ObjectNode, OtherNode, Span, StringNode, TreeNode } from './tree.js';

const CLOSERS = new Set(['}', ']', ')']);
/**
 * How deep braces, brackets and parentheses may nest. Hand-written IaC and scripts stay within a
 * few dozen; past this the recursive descent (and every walk of the tree after it) would risk the
 * call stack, so the file is reported as unreadable instead.
 */
const MAX_CODE_NESTING = 500;
/** Tokens that end an expression inside an object, list or argument list. */
const TERMINATORS = new Set([',', ';', ':', '}', ']', ')']);

/**
 * Read HCL, JS/TS, Python or JSON into the loose tree. It never rejects what it does not
 * understand: unknown statements become positional items, stray closers are skipped. Only
 * unterminated strings, heredocs and comments throw (a SourceSyntaxError), since everything
 * after them would be misread.
 */
export function parseCode(source: SourceText, dialect: Dialect, from = 0, to = source.text.length): ObjectNode {
  // Issue 25 item 4: a scan reads a file for its blueprints, then judges it (and a Terraform file
  // also for its configuration's values); each pass after the first gets the tree, or the error,
  // of the first. Kept with the file's text, and gone with it. Analyzers only read trees.
  const key = `${dialect}:${from}:${to}`;
  let known = parsed.get(source);
  const earlier = known?.get(key);
  if (earlier instanceof SourceSyntaxError) throw earlier;
  if (earlier) return earlier;
  if (!known) parsed.set(source, (known = new Map()));
  try {
    const tree = new Parser(source, dialect, tokenize(source, dialect, from, to)).parseTop(from, to);
    known.set(key, tree);
    return tree;
  } catch (error) {
    if (error instanceof SourceSyntaxError) known.set(key, error);
    throw error;
  }
}

/** A JSON document's value: the parser reads a document as a body of statements, and the value is its one item. */
export const documentValue = (top: ObjectNode): TreeNode => (top.entries.length === 0 && top.items.length === 1 ? top.items[0]! : top);

/**
 * A JSON file whose brackets are still open where it ends was cut short (a copy stopped mid-file):
 * what it held after the cut is unknown, so it is not read (the run is incomplete), whatever the
 * loose reading would make of the part that is there.
 */
export function refuseCutShort(source: SourceText): void {
  let open = 0;
  for (const token of tokenize(source, 'json')) if (token.type === 'punct') open = Math.max(0, open + (token.value === '{' || token.value === '[' ? 1 : token.value === '}' || token.value === ']' ? -1 : 0));
  if (open > 0) throw new SourceSyntaxError(`cut short: ${plural(open, 'bracket')} still open where the file ends`, source.lineOf(source.text.length));
}

/** Each source's trees (or the error that stopped it), by dialect and range. */
const parsed = new WeakMap<SourceText, Map<string, ObjectNode | SourceSyntaxError>>();

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(
    private readonly source: SourceText,
    private readonly dialect: Dialect,
    private readonly tokens: CodeToken[],
  ) {}

  parseTop(from: number, to: number): ObjectNode {
    const body = this.emptyObject(from);
    for (;;) {
      this.parseBodyItems(body);
      const token = this.peek();
      if (!token) break;
      this.pos++; // a stray closer at the top level: skip it and go on
    }
    body.span.end = to;
    return body;
  }

  private span(start: number, end: number): Span {
    return { source: this.source, start, end };
  }

  private emptyObject(start: number): ObjectNode {
    return { kind: 'object', entries: [], items: [], span: this.span(start, start) };
  }

  private peek(offset = 0): CodeToken | undefined {
    return this.tokens[this.pos + offset];
  }

  private isPunct(token: CodeToken | undefined, value: string): boolean {
    return token?.type === 'punct' && token.value === value;
  }

  private skip(types: (token: CodeToken) => boolean): void {
    while (this.peek() && types(this.peek()!)) this.pos++;
  }

  /**
   * The items of a body, list or argument list, up to (not including) any closer: line breaks and
   * `separator`s skipped, each item read by `read`, and a token it does not take skipped.
   */
  private eachItem(separator: (token: CodeToken) => boolean, read: () => void): void {
    for (;;) {
      this.skip((t) => t.type === 'newline' || separator(t));
      const token = this.peek();
      if (!token || (token.type === 'punct' && CLOSERS.has(token.value))) return;
      const before = this.pos;
      read();
      if (this.pos === before) this.pos++; // always make progress
    }
  }

  /** The expression that starts here into `items`, when one does (none starts at a line break). */
  private expressionInto(items: TreeNode[]): void {
    const node = this.parseExpression();
    if (node) items.push(node);
  }

  /** Items of an object or block body, up to (not including) any closer. */
  private parseBodyItems(body: ObjectNode): void {
    this.eachItem((t) => this.isPunct(t, ',') || this.isPunct(t, ';'), () => {
      const entry = this.tryEntry() ?? this.tryBlock();
      if (entry) body.entries.push(entry);
      else this.expressionInto(body.items);
    });
  }

  /** `key = value`, `key: value`, `"key": value`. */
  private tryEntry(): Entry | undefined {
    const key = this.peek();
    const separator = this.peek(1);
    if (!key || (key.type !== 'ident' && key.type !== 'string')) return undefined;
    if (!this.isPunct(separator, '=') && !this.isPunct(separator, ':')) return undefined;
    this.pos += 2;
    this.skip((t) => t.type === 'newline' && this.dialect !== 'hcl');
    const value = this.parseExpression() ?? this.other(separator!.end, separator!.end, []);
    return {
      key: key.value,
      keySpan: this.span(key.start, key.end),
      value,
      span: this.span(key.start, value.span.end),
    };
  }

  /** HCL blocks: `resource "port_blueprint" "x" {`, `required_providers {`. */
  private tryBlock(): Entry | undefined {
    if (this.dialect !== 'hcl') return undefined;
    const type = this.peek();
    if (type?.type !== 'ident') return undefined;
    let offset = 1;
    const labels: string[] = [];
    for (;;) {
      const token = this.peek(offset);
      if (token?.type !== 'string' && token?.type !== 'ident') break;
      labels.push(token.value);
      offset++;
    }
    if (!this.isPunct(this.peek(offset), '{')) return undefined;
    this.pos += offset;
    const body = this.parseBraced();
    body.labels = labels;
    body.span.start = type.start;
    return { key: type.value, keySpan: this.span(type.start, type.end), value: body, span: this.span(type.start, body.span.end) };
  }

  private parseBraced(): ObjectNode {
    return this.nested((open) => {
      const body = this.emptyObject(open.start);
      this.parseBodyItems(body);
      body.span.end = this.close('}', open.end);
      return body;
    });
  }

  /** Consume the expected closer if it is next; a different closer is left for an outer level. */
  private close(closer: string, fallback: number): number {
    const token = this.peek();
    if (this.isPunct(token, closer)) {
      this.pos++;
      return token!.end;
    }
    return this.tokens[this.pos - 1]?.end ?? fallback;
  }

  private parseList(): ListNode {
    return this.nested((open) => {
      const items: TreeNode[] = [];
      this.eachItem((t) => this.isPunct(t, ',') || this.isPunct(t, ':'), () => this.expressionInto(items));
      const end = this.close(']', open.end);
      return { kind: 'list', items, span: this.span(open.start, end) };
    });
  }

  /** `( … )`: call arguments or a group; `name = value` arguments become entries (Python keywords). */
  private parseArguments(): ObjectNode {
    return this.nested((open) => {
      const args = this.emptyObject(open.start);
      this.eachItem((t) => this.isPunct(t, ','), () => {
        const entry = this.isPunct(this.peek(1), '=') ? this.tryEntry() : undefined;
        if (entry) args.entries.push(entry);
        else this.expressionInto(args.items);
      });
      args.span.end = this.close(')', open.end);
      return args;
    });
  }

  /** A primary followed by whatever continues it on the same line (`a ? b : c` is cut at `:`). */
  private parseExpression(): TreeNode | undefined {
    const first = this.parsePrimary();
    if (!first) return undefined;
    const parts = [first];
    for (;;) {
      const token = this.peek();
      if (!token || token.type === 'newline' || (token.type === 'punct' && TERMINATORS.has(token.value))) break;
      const next = this.parsePrimary();
      if (!next) break;
      parts.push(next);
    }
    if (parts.length === 1) return first;
    return this.other(first.span.start, parts[parts.length - 1]!.span.end, parts);
  }

  private parsePrimary(): TreeNode | undefined {
    const token = this.peek();
    if (!token || token.type === 'newline') return undefined;
    if (token.type === 'string') {
      this.pos++;
      return this.stringNode(token);
    }
    if (token.type === 'punct' && token.value === '{') return this.parseBraced();
    if (token.type === 'punct' && token.value === '[') return this.parseList();
    if (token.type === 'punct' && token.value === '(') return this.parseArguments();
    if (token.type === 'ident') return this.parseReference();
    if (token.type === 'punct' && CLOSERS.has(token.value)) return undefined;
    this.pos++;
    return this.other(token.start, token.end, []);
  }

  /** `a.b.c`, `a["k"].c`, `new port.Blueprint(…)`, `jsonencode({…})`. */
  private parseReference(): TreeNode {
    const head = this.peek();
    // `new port.Blueprint(…)` is read as the call `port.Blueprint(…)`.
    if (head?.type === 'ident' && head.value === 'new' && this.peek(1)?.type === 'ident') this.pos++;
    const first = this.tokens[this.pos++] as Extract<CodeToken, { type: 'ident' }>;
    let path = first.value;
    let end = first.end;
    for (;;) {
      const dot = this.peek();
      const name = this.peek(1);
      if (this.isPunct(dot, '.') && (name?.type === 'ident' || name?.type === 'op')) {
        path += `.${'value' in name ? name.value : ''}`;
        end = name.end;
        this.pos += 2;
        continue;
      }
      // `[0]`, `["k"]` and `[*]` index into a reference without ending it.
      if (this.isPunct(dot, '[') && name && this.isPunct(this.peek(2), ']') && (name.type !== 'newline')) {
        path += `[${this.source.text.slice(name.start, name.end)}]`;
        end = this.peek(2)!.end;
        this.pos += 3;
        continue;
      }
      break;
    }
    if (this.isPunct(this.peek(), '(')) {
      const args = this.parseArguments();
      return { kind: 'call', callee: path, calleeSpan: this.span(first.start, end), args, span: this.span(first.start, args.span.end) } satisfies CallNode;
    }
    return { kind: 'ref', path, span: this.span(first.start, end) };
  }

  /** One level deeper, from the opener here (`{`, `[`, `(`); past MAX_CODE_NESTING the file is refused with the line it happens on. */
  private nested<T>(parse: (open: CodeToken) => T): T {
    if (++this.depth > MAX_CODE_NESTING) {
      throw new SourceSyntaxError(`nested deeper than ${MAX_CODE_NESTING} levels`, this.source.lineOf(this.peek()?.start ?? 0));
    }
    try {
      return parse(this.tokens[this.pos++]!);
    } finally {
      this.depth--;
    }
  }

  private stringNode({ type: _string, start, end, ...string }: Extract<CodeToken, { type: 'string' }>): StringNode {
    return { kind: 'string', ...string, span: this.span(start, end) };
  }

  private other(start: number, end: number, parts: TreeNode[]): OtherNode {
    return { kind: 'other', span: this.span(start, end), parts };
  }
}
