import { SourceSyntaxError, type SourceText } from './source-text.js';
import type { StringNode } from './tree.js';

/** The languages the loose tokenizer reads; they differ in comments and string syntax only. */
export type Dialect = 'hcl' | 'js' | 'python' | 'json';

export type CodeToken =
  | { type: 'ident'; value: string; start: number; end: number }
  | { type: 'punct'; value: string; start: number; end: number }
  | { type: 'op'; value: string; start: number; end: number }
  | { type: 'newline'; start: number; end: number }
  /** A string node's fields (tree.ts), with the quotes code writes (YAML's lines are not tokenized). */
  | ({ type: 'string'; quote: '"' | "'" | '`' | 'heredoc'; start: number; end: number } & Omit<StringNode, 'kind' | 'span' | 'quote'>);

const PUNCT = new Set(['{', '}', '[', ']', '(', ')', ',', ';', ':', '=', '.']);
// Multi-character operators, longest first, so `==` is never read as a key separator `=`.
const OPERATORS = ['...', '===', '!==', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '**', '->', ':='];
const isIdentStart = (c: string) => /[A-Za-z_$@]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$@-]/.test(c);

/**
 * Split `source.text[from, to)` into tokens, dropping comments. Offsets stay those of the whole
 * file, so a JSON body inside a heredoc or a shell string is located exactly where it is written.
 */
export function tokenize(source: SourceText, dialect: Dialect, from = 0, to = source.text.length): CodeToken[] {
  const text = source.text;
  const tokens: CodeToken[] = [];
  let pos = from;
  const fail = (message: string, at: number): never => {
    throw new SourceSyntaxError(message, source.lineOf(at));
  };

  while (pos < to) {
    const c = text[pos]!;
    const next = text[pos + 1] ?? '';
    if (c === '\n') {
      tokens.push({ type: 'newline', start: pos, end: pos + 1 });
      pos++;
      continue;
    }
    if (/\s/.test(c)) {
      pos++;
      continue;
    }
    // Comments: commented-out code is not code, so it never reaches the parser.
    if ((c === '#' && dialect !== 'js' && dialect !== 'json') || (c === '/' && next === '/' && dialect !== 'python')) {
      while (pos < to && text[pos] !== '\n') pos++;
      continue;
    }
    if (c === '/' && next === '*' && dialect !== 'python') {
      const close = text.indexOf('*/', pos + 2);
      if (close < 0 || close + 2 > to) fail('unterminated /* comment', pos);
      pos = close + 2;
      continue;
    }
    if (dialect === 'hcl' && c === '<' && next === '<' && /^<<-?[A-Za-z_]/.test(text.slice(pos, pos + 4))) {
      const heredoc = readHeredoc(text, pos, to);
      if (!heredoc) fail('unterminated heredoc', pos);
      tokens.push(heredoc!);
      pos = heredoc!.end;
      continue;
    }
    if (dialect === 'python' && /[rRbBuUfF]/.test(c)) {
      // String prefixes: r"…", f'…', rb"…".
      const prefix = /^[rRbBuUfF]{1,2}(?=["'])/.exec(text.slice(pos, pos + 3));
      if (prefix) {
        const token = readQuoted(text, pos + prefix[0].length, to, dialect, fail);
        tokens.push({ ...token, start: pos });
        pos = token.end;
        continue;
      }
    }
    if (c === '"' || (c === "'" && dialect !== 'hcl') || (c === '`' && dialect === 'js')) {
      const token = readQuoted(text, pos, to, dialect, fail);
      tokens.push(token);
      pos = token.end;
      continue;
    }
    if (isIdentStart(c) || (c === '-' && /[0-9]/.test(next)) || /[0-9]/.test(c)) {
      let end = pos + 1;
      while (end < to && (isIdentPart(text[end]!) || (/[0-9]/.test(c) && text[end] === '.'))) end++;
      tokens.push({ type: 'ident', value: text.slice(pos, end), start: pos, end });
      pos = end;
      continue;
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, pos));
    if (operator) {
      tokens.push({ type: 'op', value: operator, start: pos, end: pos + operator.length });
      pos += operator.length;
      continue;
    }
    tokens.push(PUNCT.has(c) ? { type: 'punct', value: c, start: pos, end: pos + 1 } : { type: 'op', value: c, start: pos, end: pos + 1 });
    pos++;
  }
  return tokens;
}

function readHeredoc(text: string, start: number, to: number): CodeToken | undefined {
  const header = /^<<(-?)([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n/.exec(text.slice(start, start + 80));
  if (!header) return undefined;
  const marker = header[2]!;
  const contentStart = start + header[0].length;
  let lineStart = contentStart;
  while (lineStart < to) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > to) lineEnd = to;
    if (text.slice(lineStart, lineEnd).trim() === marker) {
      const content = text.slice(contentStart, lineStart);
      return { type: 'string', value: content, quote: 'heredoc', exact: true, contentStart, contentEnd: lineStart, start, end: lineEnd };
    }
    lineStart = lineEnd + 1;
  }
  return undefined;
}

type Fail = (message: string, at: number) => never;

function readQuoted(text: string, start: number, to: number, dialect: Dialect, fail: Fail): Extract<CodeToken, { type: 'string' }> {
  const quote = text[start]! as '"' | "'" | '`';
  const triple = dialect === 'python' && text.startsWith(quote.repeat(3), start);
  const delimiter = triple ? quote.repeat(3) : quote;
  const contentStart = start + delimiter.length;
  let value = '';
  let exact = true;
  let pos = contentStart;
  while (pos < to) {
    const c = text[pos]!;
    if (text.startsWith(delimiter, pos)) {
      return { type: 'string', value, quote, exact, contentStart, contentEnd: pos, start, end: pos + delimiter.length };
    }
    if (c === '\n' && !triple && quote !== '`') break;
    if (c === '\\') {
      exact = false;
      const escaped = text[pos + 1] ?? '';
      if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
        value += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
        pos += 6;
        continue;
      }
      value += ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[escaped] ?? escaped;
      pos += 2;
      continue;
    }
    // HCL `${ … }` may hold quotes of its own (`"${var.x["k"]}"`); skip to its closing brace.
    if (dialect === 'hcl' && c === '$' && text[pos + 1] === '{') {
      const close = skipInterpolation(text, pos + 2, to);
      value += text.slice(pos, close);
      pos = close;
      continue;
    }
    value += c;
    pos++;
  }
  return fail(`unterminated string starting with ${delimiter}`, start);
}

function skipInterpolation(text: string, from: number, to: number): number {
  let depth = 1;
  let pos = from;
  while (pos < to && depth > 0) {
    const c = text[pos]!;
    if (c === '"') {
      pos++;
      while (pos < to && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    pos++;
  }
  return pos;
}
