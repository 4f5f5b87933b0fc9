import { assessTeamExpression } from '../judge/team-impact.js';

/** How one jq expression is judged: the judge's own function, or the same remembered (`memoisedJudge`). */
export type ExpressionJudge = typeof assessTeamExpression;

/**
 * One verdict per distinct expression text and context over a repository scan (issue 41): a file is
 * judged with every repository blueprint it may reach, so a calculation copied into many files, or
 * a blueprint other files are judged with, was judged again at each occurrence (44 % of a scan).
 * The key is the text and every piece of context and option the judge is given, whatever their
 * names (a piece the judge gains later is keyed too): values by content, sets and maps by their
 * entries in order, objects of a class (the team directory, jq) and arrays (the org's people) by
 * identity. Two sites differing in anything the judge reads are never merged; they can only miss.
 */
export function memoisedJudge(judge: ExpressionJudge = assessTeamExpression): ExpressionJudge {
  const verdicts = new Map<string, ReturnType<ExpressionJudge>>();
  const keys = new ContextKeys();
  return (expression, context, options = {}) => {
    const key = `${keys.of(context, true)}\u0001${keys.of(options, true)}\u0001${expression}`;
    if (verdicts.has(key)) return verdicts.get(key);
    const verdict = judge(expression, context, options);
    verdicts.set(key, verdict);
    return verdict;
  };
}

/**
 * Keys of the values a judge is given, short: what an object holds becomes a number the first time
 * that object is met (the team directory, a catalog's sets and maps, built whole, then only read), so
 * a key never spells out a whole directory. The context and options themselves are new at each call:
 * their own fields are keyed each time.
 */
class ContextKeys {
  private readonly known = new WeakMap<object, string>();
  private readonly numbers = new Map<string, string>();
  private objects = 0;

  of(value: unknown, fresh = false): string {
    if (value === undefined) return 'u';
    if (typeof value === 'string') return JSON.stringify(value);
    // A function (a method of jq's engine, an object literal) is told apart by identity, never by its source text.
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return `${typeof value}:${String(value)}`;
    if (fresh) return this.held(value) ?? `@${++this.objects}`;
    let key = this.known.get(value);
    if (key !== undefined) return key;
    const held = this.held(value);
    // The same content met in another object gets the same number: two catalogs' equal sets are one key.
    if (held === undefined) key = `@${++this.objects}`;
    else if ((key = this.numbers.get(held)) === undefined) this.numbers.set(held, (key = `#${this.numbers.size}`));
    this.known.set(value, key);
    return key;
  }

  /** What a set, a map or a plain object holds, in order; undefined for others (jq, arrays: told apart by identity). */
  private held(value: object): string | undefined {
    if (typeof value === 'function') return undefined;
    if (value instanceof Set) return `S[${[...value].map((item) => this.of(item)).join(',')}]`;
    if (value instanceof Map) return `M[${[...value].map(([name, item]) => `${this.of(name)}=${this.of(item)}`).join(',')}]`;
    const prototype = Object.getPrototypeOf(value);
    if (Array.isArray(value) || (prototype !== Object.prototype && prototype !== null)) return undefined;
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${this.of((value as Record<string, unknown>)[name])}`)
      .join(',')}}`;
  }
}
