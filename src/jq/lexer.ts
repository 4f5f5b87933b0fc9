/**
 * A lexer for jq expressions. It is enough to tell code from text: `.team` from `.teams`, a field
 * access from the same characters inside a string literal or a comment, and to find the string
 * literals an expression compares against. Interpolations (`"\(.team)"`) are lexed recursively.
 * Validation is jq's own job (src/jq/engine.ts); this lexer never rejects what jq would accept,
 * it only reports the first place it cannot read.
 */

export type TokenType =
  | 'field' // .name, ."name"  → value is the field name
  | 'dot' // a lone `.` (identity, or the start of `.[...]`)
  | 'recurse' // ..
  | 'variable' // $name → value is the name without `$`
  | 'identifier' // function names (`not`, `map`, ...) and object keys
  | 'keyword' // def, if, then, and, or, ...
  | 'format' // @base64, @json, ...
  | 'number'
  | 'string' // value is the decoded text outside `\( )`; those are in `interpolations`
  | 'operator'
  | 'punctuation'; // ( ) [ ] { } , : ; ?

export interface Token {
  type: TokenType;
  value: string;
  /** Offsets into the source: `source.slice(start, end)` is the token's text. */
  start: number;
  end: number;
  /** For strings with interpolation: the tokens of each `\( … )`, in order. */
  interpolations?: Token[][];
}

export class JqLexError extends Error {
  override name = 'JqLexError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const KEYWORDS = new Set([
  'def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch',
  'label', 'import', 'include', 'and', 'or', '__loc__',
]);

// Longest first, so `//=` wins over `//` and `?//` over `?`.
const OPERATORS = ['?//', '//=', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '//', '|', '+', '-', '*', '/', '%', '=', '<', '>'];
const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', ':', ';', '?']);

const isIdentStart = (c: string) => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/** The tokens, or undefined where the lexer cannot read the expression (callers then assume the worst). */
export function tryLexJq(source: string): Token[] | undefined {
  try {
    return lexJq(source);
  } catch (error) {
    if (error instanceof JqLexError) return undefined;
    throw error;
  }
}

export function lexJq(source: string): Token[] {
  return lexUntil(source, { pos: 0 }, false);
}

/** Lex from state.pos; when `inInterpolation`, stop at the `)` that closes `\(`. */
function lexUntil(source: string, state: { pos: number }, inInterpolation: boolean): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  while (state.pos < source.length) {
    const start = state.pos;
    const c = source[start]!;
    if (/\s/.test(c)) {
      state.pos++;
      continue;
    }
    if (c === '#') {
      state.pos = commentEnd(source, start);
      continue;
    }
    if (c === '"') {
      tokens.push(lexString(source, state));
      continue;
    }
    if (c === '.') {
      if (source[start + 1] === '.') {
        state.pos += 2;
        tokens.push({ type: 'recurse', value: '..', start, end: state.pos });
        continue;
      }
      const next = source[start + 1] ?? '';
      if (isIdentStart(next)) {
        let end = start + 1;
        while (end < source.length && isIdentPart(source[end]!)) end++;
        state.pos = end;
        tokens.push({ type: 'field', value: source.slice(start + 1, end), start, end });
        continue;
      }
      if (next === '"') {
        state.pos = start + 1;
        const str = lexString(source, state);
        // `."\(x)"` is a computed field; keep it as a dot followed by the string.
        if (str.interpolations) {
          tokens.push({ type: 'dot', value: '.', start, end: start + 1 }, str);
        } else {
          tokens.push({ type: 'field', value: str.value, start, end: str.end });
        }
        continue;
      }
      if (isDigit(next)) {
        tokens.push(lexNumber(source, state));
        continue;
      }
      state.pos++;
      tokens.push({ type: 'dot', value: '.', start, end: state.pos });
      continue;
    }
    if (c === '$') {
      let end = start + 1;
      while (end < source.length && (isIdentPart(source[end]!) || source.startsWith('::', end))) end += source.startsWith('::', end) ? 2 : 1;
      if (end === start + 1) throw new JqLexError('a "$" must be followed by a variable name', start);
      state.pos = end;
      tokens.push({ type: 'variable', value: source.slice(start + 1, end), start, end });
      continue;
    }
    if (c === '@') {
      let end = start + 1;
      while (end < source.length && isIdentPart(source[end]!)) end++;
      state.pos = end;
      tokens.push({ type: 'format', value: source.slice(start, end), start, end });
      continue;
    }
    if (isDigit(c)) {
      tokens.push(lexNumber(source, state));
      continue;
    }
    if (isIdentStart(c)) {
      let end = start;
      while (end < source.length && (isIdentPart(source[end]!) || source.startsWith('::', end))) end += source.startsWith('::', end) ? 2 : 1;
      const word = source.slice(start, end);
      state.pos = end;
      tokens.push({ type: KEYWORDS.has(word) ? 'keyword' : 'identifier', value: word, start, end });
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, start));
    if (op) {
      state.pos += op.length;
      tokens.push({ type: 'operator', value: op, start, end: state.pos });
      continue;
    }
    if (PUNCTUATION.has(c)) {
      if (inInterpolation && c === '(') depth++;
      if (inInterpolation && c === ')') {
        if (depth === 0) return tokens; // the caller consumes the closing parenthesis
        depth--;
      }
      state.pos++;
      tokens.push({ type: 'punctuation', value: c, start, end: state.pos });
      continue;
    }
    throw new JqLexError(`unexpected character ${JSON.stringify(c)}`, start);
  }
  if (inInterpolation) throw new JqLexError('unterminated string interpolation "\\("', state.pos);
  return tokens;
}

/**
 * A comment runs to the end of the line; since jq 1.7.1 an odd number of backslashes before the
 * newline (optionally `\r\n`) continues it on the next line, so `# note \` hides the next line too.
 */
function commentEnd(source: string, start: number): number {
  let pos = start;
  for (;;) {
    const newline = source.indexOf('\n', pos);
    if (newline === -1) return source.length;
    let backslashes = 0;
    let i = source[newline - 1] === '\r' ? newline - 2 : newline - 1;
    while (i > start && source[i] === '\\') {
      backslashes++;
      i--;
    }
    if (backslashes % 2 === 0) return newline;
    pos = newline + 1;
  }
}

function lexNumber(source: string, state: { pos: number }): Token {
  const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(state.pos));
  const start = state.pos;
  state.pos += match ? match[0].length : 1;
  return { type: 'number', value: source.slice(start, state.pos), start, end: state.pos };
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function lexString(source: string, state: { pos: number }): Token {
  const start = state.pos;
  state.pos++; // opening quote
  let value = '';
  const interpolations: Token[][] = [];
  while (state.pos < source.length) {
    const c = source[state.pos]!;
    if (c === '"') {
      state.pos++;
      const token: Token = { type: 'string', value, start, end: state.pos };
      if (interpolations.length > 0) token.interpolations = interpolations;
      return token;
    }
    if (c !== '\\') {
      value += c;
      state.pos++;
      continue;
    }
    const escape = source[state.pos + 1];
    if (escape === '(') {
      state.pos += 2;
      interpolations.push(lexUntil(source, state, true));
      if (source[state.pos] !== ')') throw new JqLexError('unterminated string interpolation "\\("', state.pos);
      state.pos++;
      continue;
    }
    if (escape === 'u') {
      const hex = source.slice(state.pos + 2, state.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JqLexError('invalid \\u escape in string', state.pos);
      value += String.fromCharCode(parseInt(hex, 16));
      state.pos += 6;
      continue;
    }
    const decoded = escape === undefined ? undefined : ESCAPES[escape];
    if (decoded === undefined) throw new JqLexError(`invalid escape "\\${escape ?? ''}" in string`, state.pos);
    value += decoded;
    state.pos += 2;
  }
  throw new JqLexError('unterminated string literal', start);
}
