/**
 * Conditions of the common shapes answered in JavaScript instead of a jq round trip (issue 41):
 * 2,000 users × 5,000 different conditions is millions of runs, and jq-wasm takes 30–100 µs for
 * each. An expression is claimed only when every construct in it is one whose jq meaning is
 * reproduced here exactly: paths, `.[]`, `|`, `,`, `or`, `and`, `==`, `!=`, `//`, parentheses,
 * `[…]`, literals, and a few builtins (`index`, `contains`, `inside`, `startswith`, `endswith`,
 * `ascii_downcase`, `ascii_upcase`, `length`, `not`, `any`, `all`, `select`, `map`, `first`,
 * `IN`, `type`, `empty`). Anything else (a regex, arithmetic, a variable, `if`, `try`, an object,
 * ordering) is not claimed and goes to jq as before. At run time a case where jq would
 * raise an error, or whose meaning here is not certain (an object iterated, `index` on a string),
 * gives up the whole check, which then goes to jq. jq stays the reference:
 * test/access/fast-conditions.test.ts runs both on every shape claimed here, tricky inputs included.
 */
import { tryLexJq, type Token } from '../jq/lexer.js';
import type { ConditionCheck } from '../jq/condition-outcomes.js';
import { isObject, type JsonObject, type JsonValue } from '../model/json.js';
import { TEAM_PROVIDER } from '../judge/user-model.js';

/** A construct or a value this evaluator does not answer for certain: the check goes to jq. */
class NotClaimed extends Error {}
/** Thrown often (a person without an email under `endswith`): one instance, no stack taken each time. */
const NOT_CLAIMED = new NotClaimed();

type Run = (input: JsonValue) => JsonValue[];

/**
 * A compiled expression: `many` gives every output; `one`, where the expression always gives
 * exactly one, gives it without building arrays (millions of runs: the common shapes all have it).
 */
interface Node {
  many: Run;
  one?: (input: JsonValue) => JsonValue;
}

const fromOne = (one: (input: JsonValue) => JsonValue): Node => ({ one, many: (input) => [one(input)] });

/** One check answered in JavaScript: its outcome character on one context, or undefined to leave it to jq. */
type FastCheck = (context: JsonValue) => '1' | '0' | 'n' | undefined;

/** The check compiled, or undefined when its shape is not one answered here. */
export function compileFastCheck(check: ConditionCheck): FastCheck | undefined {
  const node = compileExpression(check.expression);
  if (!node) return undefined;
  const { one, many } = node;
  const lists = check.lists;
  const outcome = (first: JsonValue): '1' | '0' => {
    if (lists === undefined) return truthy(first) ? '1' : '0';
    return Array.isArray(first) && first.some((value) => equal(value, lists)) ? '1' : '0';
  };
  return (context) => {
    try {
      if (one) return outcome(one(context));
      // As condition-outcomes.ts `program`: only the first output counts.
      const outputs = many(context);
      return outputs.length === 0 ? 'n' : outcome(outputs[0]!);
    } catch (error) {
      if (error instanceof NotClaimed) return undefined;
      throw error;
    }
  };
}

/**
 * The outcome of each check on each context, as `conditionOutcomes` gives it (one character per
 * context), for the checks answered here; a check not claimed, or given up on any context, is absent.
 */
export function fastOutcomes(checks: readonly ConditionCheck[], contexts: readonly JsonValue[]): Map<ConditionCheck, string> {
  const answered = new Map<ConditionCheck, string>();
  const codes = new Uint8Array(contexts.length);
  for (const check of checks) {
    const fast = compileFastCheck(check);
    if (!fast) continue;
    // Written into bytes and read out once: a string joined once per context holds a piece per
    // outcome (about 32 bytes each) until it is read, 5,000 checks × 1,048 contexts 170 MB.
    let n = 0;
    for (; n < contexts.length; n++) {
      const outcome = fast(contexts[n]!);
      if (outcome === undefined) break;
      codes[n] = outcome.charCodeAt(0);
    }
    if (n === contexts.length) answered.set(check, outcomeText(codes));
  }
  return answered;
}

/** Outcome characters written as bytes, as one flat string. */
export const outcomeText = (codes: Uint8Array): string => Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('latin1');

/** `expression` compiled, or undefined when a construct in it is not claimed. */
function compileExpression(expression: string): Node | undefined {
  const tokens = tryLexJq(expression);
  if (!tokens) return undefined;
  try {
    const parser = new Parser(tokens);
    const node = parser.pipe();
    if (!parser.done()) return undefined;
    return node;
  } catch (error) {
    if (error instanceof NotClaimed) return undefined;
    throw error;
  }
}

const truthy = (value: JsonValue) => value !== false && value !== null;

const not = (): never => {
  throw NOT_CLAIMED;
};

/** jq's equality: numbers by value, arrays in order, objects whatever the key order. */
function equal(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((value, i) => equal(value, b[i]!));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && equal(a[key]!, b[key]!));
  }
  return false;
}

/** jq's kinds: true and false are kinds of their own (containment refuses to compare them). */
function kind(value: JsonValue): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** jq's `type`: true and false are one type there. */
const typeName = (value: JsonValue): string => (typeof value === 'boolean' ? 'boolean' : kind(value));

/** jq's `contains` below the top: a kind that differs is false; objects are not claimed. */
function contains(a: JsonValue, b: JsonValue): boolean {
  if (kind(a) !== kind(b)) return false;
  if (Array.isArray(a)) return (b as JsonValue[]).every((wanted) => a.some((held) => contains(held, wanted)));
  if (typeof a === 'string') return a.includes(b as string);
  if (isObject(a)) return not();
  return equal(a, b);
}

/** At the top jq raises an error on kinds that differ. */
function containsTop(a: JsonValue, b: JsonValue): boolean {
  if (kind(a) !== kind(b)) return not();
  return contains(a, b);
}

/** `.[]` on an array (objects are not claimed, anything else is an error in jq). */
function elements(value: JsonValue): JsonValue[] {
  return Array.isArray(value) ? value : not();
}

/** The one output of an expression jq binds as `$x` or compares (several outputs are not claimed). */
function single(node: Node, input: JsonValue): JsonValue {
  if (node.one) return node.one(input);
  const outputs = node.many(input);
  return outputs.length === 1 ? outputs[0]! : not();
}

/** Whether some output of `node` is neither false nor null; whether all are. */
const someTruthy = (node: Node, input: JsonValue) => (node.one ? truthy(node.one(input)) : node.many(input).some(truthy));
const allTruthy = (node: Node, input: JsonValue) => (node.one ? truthy(node.one(input)) : node.many(input).every(truthy));

const string = (value: JsonValue): string => (typeof value === 'string' ? value : not());

const ASCII_UPPER = /[A-Z]/g;
const ASCII_LOWER = /[a-z]/g;

/** Builtins with exactly one output, by `name/arity`, on their input and their arguments. */
const ONE: Record<string, (input: JsonValue, args: Node[]) => JsonValue> = {
  'not/0': (input) => !truthy(input),
  'type/0': (input) => typeName(input),
  'length/0': (input) => {
    if (input === null) return 0;
    if (Array.isArray(input)) return input.length;
    if (typeof input === 'string') return [...input].length;
    return not();
  },
  'ascii_downcase/0': (input) => string(input).replace(ASCII_UPPER, (c) => c.toLowerCase()),
  'ascii_upcase/0': (input) => string(input).replace(ASCII_LOWER, (c) => c.toUpperCase()),
  'startswith/1': (input, [prefix]) => string(input).startsWith(string(single(prefix!, input))),
  'endswith/1': (input, [suffix]) => string(input).endsWith(string(single(suffix!, input))),
  // `indices($i) | .[0]`: on an array, the first place an element equals a scalar; null on null.
  'index/1': (input, [arg]) => {
    const wanted = single(arg!, input);
    if (typeof wanted === 'object') return not();
    if (input === null) return null;
    if (!Array.isArray(input)) return not();
    const at = input.findIndex((value) => equal(value, wanted));
    return at === -1 ? null : at;
  },
  'contains/1': (input, [arg]) => containsTop(input, single(arg!, input)),
  'inside/1': (input, [arg]) => containsTop(single(arg!, input), input),
  // `reduce .[] as $x (false; . or $x)` and its `and` twin.
  'any/0': (input) => elements(input).some(truthy),
  'all/0': (input) => elements(input).every(truthy),
  'any/1': (input, [cond]) => elements(input).some((x) => someTruthy(cond!, x)),
  'all/1': (input, [cond]) => elements(input).every((x) => allTruthy(cond!, x)),
  // `isempty(first(g | c or empty)) | not` and `isempty(first(g | c and empty))`.
  'any/2': (input, [gen, cond]) => gen!.many(input).some((x) => someTruthy(cond!, x)),
  'all/2': (input, [gen, cond]) => gen!.many(input).every((x) => allTruthy(cond!, x)),
  // `any(s == .; .)`.
  'IN/1': (input, [source]) => source!.many(input).some((value) => equal(value, input)),
  'map/1': (input, [f]) => (f!.one ? elements(input).map(f!.one) : elements(input).flatMap(f!.many)),
  'first/0': (input) => {
    if (input === null) return null;
    return Array.isArray(input) ? (input[0] ?? null) : not();
  },
};

/** Builtins with any number of outputs. */
const MANY: Record<string, (input: JsonValue, args: Node[]) => JsonValue[]> = {
  'empty/0': () => [],
  'select/1': (input, [cond]) => cond!.many(input).filter(truthy).map(() => input),
  'first/1': (input, [f]) => f!.many(input).slice(0, 1),
};

/**
 * Recursive descent over jq's precedence, lowest first: `|`, `,`, `//`, `or`, `and`, `==`/`!=`
 * (non-associative), then a term with its suffixes. A token this grammar has no place for ends
 * the claim.
 */
class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  done(): boolean {
    return this.at === this.tokens.length;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private is(type: Token['type'], value?: string): boolean {
    const token = this.peek();
    return token !== undefined && token.type === type && (value === undefined || token.value === value);
  }

  private expect(type: Token['type'], value: string): void {
    if (!this.is(type, value)) not();
    this.at++;
  }

  pipe(): Node {
    let left = this.comma();
    while (this.is('operator', '|')) {
      this.at++;
      const a = left;
      const b = this.comma();
      const [aOne, bOne] = [a.one, b.one];
      left = aOne && bOne ? fromOne((input) => bOne(aOne(input))) : { many: (input) => a.many(input).flatMap(b.many) };
    }
    return left;
  }

  /** `a, b`: a's outputs, then b's. */
  private comma(): Node {
    let left = this.alternative();
    while (this.is('punctuation', ',')) {
      this.at++;
      const a = left;
      const b = this.alternative();
      left = { many: (input) => [...a.many(input), ...b.many(input)] };
    }
    return left;
  }

  /** `a // b`: a's outputs that are neither false nor null, or else b's. */
  private alternative(): Node {
    const left = this.or();
    if (!this.is('operator', '//')) return left;
    this.at++;
    const right = this.alternative();
    return {
      many: (input) => {
        const kept = left.many(input).filter(truthy);
        return kept.length > 0 ? kept : right.many(input);
      },
    };
  }

  private or(): Node {
    return this.chain('or', () => this.and());
  }

  private and(): Node {
    return this.chain('and', () => this.comparison());
  }

  /**
   * `a or b`, `a and b`: jq short-circuits per output of the left side; a left value that is
   * truthy for `or` (falsy for `and`) decides alone, else the right side's truthiness does.
   */
  private chain(keyword: 'or' | 'and', operand: () => Node): Node {
    const decides = keyword === 'or';
    let left = operand();
    while (this.is('keyword', keyword)) {
      this.at++;
      const a = left;
      const b = operand();
      const [aOne, bOne] = [a.one, b.one];
      left = aOne && bOne
        ? fromOne((input) => (truthy(aOne(input)) === decides ? decides : truthy(bOne(input))))
        : { many: (input) => a.many(input).flatMap((x) => (truthy(x) === decides ? [decides] : b.many(input).map(truthy))) };
    }
    return left;
  }

  private comparison(): Node {
    const left = this.postfix();
    if (!this.is('operator', '==') && !this.is('operator', '!=')) return left;
    const negate = this.peek()!.value === '!=';
    this.at++;
    const right = this.postfix();
    // Each side one output, so the order jq pairs several in does not matter.
    return fromOne((input) => equal(single(left, input), single(right, input)) !== negate);
  }

  /** A term, then `.field`, `."field"` and `[]` suffixes. */
  private postfix(): Node {
    let node = this.term();
    for (;;) {
      if (this.is('field')) {
        const name = this.tokens[this.at++]!.value;
        const of = node;
        const ofOne = of.one;
        node = ofOne ? fromOne((input) => field(ofOne(input), name)) : { many: (input) => of.many(input).map((value) => field(value, name)) };
      } else if (this.is('punctuation', '[') && this.tokens[this.at + 1]?.type === 'punctuation' && this.tokens[this.at + 1]!.value === ']') {
        this.at += 2;
        const of = node;
        node = { many: (input) => of.many(input).flatMap(elements) };
      } else return node;
    }
  }

  private term(): Node {
    const token = this.peek() ?? not();
    this.at++;
    switch (token.type) {
      case 'dot':
        return fromOne((input) => input);
      case 'field':
        return fromOne((input) => field(input, token.value));
      case 'string': {
        if (token.interpolations?.length) return not();
        const value = token.value;
        return fromOne(() => value);
      }
      case 'number': {
        // Past 2^53 jq keeps a literal's digits where a double would not.
        const value = Number(token.value);
        if (!Number.isSafeInteger(value)) return not();
        return fromOne(() => value);
      }
      case 'punctuation':
        if (token.value === '(') {
          const inner = this.pipe();
          this.expect('punctuation', ')');
          return inner;
        }
        if (token.value === '[') {
          if (this.is('punctuation', ']')) {
            this.at++;
            return fromOne(() => []);
          }
          const inner = this.pipe();
          this.expect('punctuation', ']');
          return fromOne((input) => inner.many(input));
        }
        return not();
      case 'identifier':
        return this.call(token.value);
      default:
        return not();
    }
  }

  private call(name: string): Node {
    if (name === 'true' || name === 'false' || name === 'null') {
      const value = name === 'null' ? null : name === 'true';
      return fromOne(() => value);
    }
    const args: Node[] = [];
    if (this.is('punctuation', '(')) {
      this.at++;
      args.push(this.pipe());
      while (this.is('punctuation', ';')) {
        this.at++;
        args.push(this.pipe());
      }
      this.expect('punctuation', ')');
    }
    const key = `${name}/${args.length}`;
    const one = ONE[key];
    if (one) return fromOne((input) => one(input, args));
    const many = MANY[key] ?? not();
    return { many: (input) => many(input, args) };
  }
}

/** `.name` on an object or null; anything else is an error in jq. */
function field(value: JsonValue, name: string): JsonValue {
  if (value === null) return null;
  if (isObject(value)) return Object.hasOwn(value, name) ? value[name]! : null;
  return not();
}

/**
 * The context a condition sees, built from the compact user `[values, email | null, roles | null,
 * names]` exactly as `USER_MODEL_JQ` (src/judge/user-model.ts) builds it inside jq; a test holds
 * the two equal.
 */
export function userContextObject(compact: JsonValue): JsonValue {
  const [values, email, roles, names] = compact as [string[], string | null, string[] | null, string[]];
  const user: JsonObject = { team: values, teamsIdentifiers: values, teams: names.map((name) => ({ name, provider: TEAM_PROVIDER })) };
  if (email !== null) user.email = email;
  if (roles !== null) user.roles = roles.map((name) => ({ name }));
  return { user, trigger: { by: { user }, user } };
}
