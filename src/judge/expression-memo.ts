import { assessTeamExpression, type ImpactContext } from './team-impact.js';
import type { Catalog } from '../catalog/catalog.js';
import { namedReads } from './reading-order.js';

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
 *
 * Of the calculations derived from team values, the context keeps only those the expression can see
 * (`derivedSeen`): the judge runs every one it is given on each sample entity, and a file's catalog
 * holds its own, so each file missed and ran them all again, for expressions that read none (issue 41).
 *
 * `madeUp`: how many answers jq's engine has made up so far (a plan's, src/jq/prefetch-rules.ts
 * PlanningEngine): a verdict reached while it grew is not kept.
 */
export function memoisedJudge(judge: ExpressionJudge = assessTeamExpression, madeUp?: () => number): ExpressionJudge {
  const verdicts = new Map<string, ReturnType<ExpressionJudge>>();
  const keys = new ContextKeys();
  const memoised: ExpressionJudge = (expression, whole, options = {}) => {
    const context = withDerivedSeen(expression, whole);
    const key = `${keys.of(context, true)}\u0001${keys.of(options, true)}\u0001${expression}`;
    if (verdicts.has(key)) return verdicts.get(key);
    const before = madeUp?.();
    const verdict = judge(expression, context, options);
    if (madeUp?.() === before) verdicts.set(key, verdict);
    return verdict;
  };
  made.set(memoised, memoised);
  return memoised;
}

/** The judges `memoisedJudge` made: a catalog carries one as a token it cannot read. */
const made = new WeakMap<object, ExpressionJudge>();

/** The judge a catalog's expressions go through: the memo it carries, else the judge's own function. */
export function judgeOf(catalog: Pick<Catalog, 'judgeExpression'>): ExpressionJudge {
  return (catalog.judgeExpression && made.get(catalog.judgeExpression)) ?? seeingOnlyItsOwn;
}

/**
 * The judge's own function, each expression given only the derived calculations it can see: given
 * them all, every expression filled every calculation of its blueprint on each sample entity, so a
 * blueprint of n team-derived calculations cost n² runs (120 of them took 40 s in one org's analysis).
 */
const seeingOnlyItsOwn: ExpressionJudge = (expression, context, options) => assessTeamExpression(expression, withDerivedSeen(expression, context), options);

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

/** The context with only the derived calculations the expression can see; the same object when it can see them all. */
function withDerivedSeen(expression: string, context: ImpactContext): ImpactContext {
  const derived = context.derivedProperties;
  if (derived === undefined || derived.size === 0) return context;
  const seen = derivedSeen(expression, derived);
  return seen === derived ? context : { ...context, derivedProperties: seen };
}

/**
 * The derived calculations an expression can see on an entity: those it reads by name at a fixed
 * path (`.properties.<name>`), and those these read in turn, in the given order (the judge fills
 * each after those it reads: `readingOrder`). All of them when it or one of them reads
 * beyond fixed paths (`.properties | keys`, `..`, `tojson`, a variable bound to the entity: the
 * judge's own test, team-reach.ts) or cannot be read: only then could an unnamed one change what it gives.
 */
export function derivedSeen(expression: string, derived: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  // Asked for every expression judged, with the org's one map: each text is lexed once per map
  // and size (a map being found only grows).
  let known = seenIn.get(derived);
  if (!known) seenIn.set(derived, (known = new Map()));
  const key = `${derived.size}\u0000${expression}`;
  let seen = known.get(key);
  if (seen) return seen;
  const names = new Set(derived.keys());
  const wanted = new Set<string>();
  const pending = [expression];
  for (let text = pending.pop(); text !== undefined && wanted.size < names.size; text = pending.pop()) {
    const reads = namedReads(text, names);
    for (const name of reads ?? names) if (!wanted.has(name) && wanted.add(name)) pending.push(derived.get(name)!);
  }
  seen = wanted.size === derived.size ? derived : wanted.size === 0 ? NONE_SEEN : new Map([...derived].filter(([name]) => wanted.has(name)));
  known.set(key, seen);
  return seen;
}

const seenIn = new WeakMap<ReadonlyMap<string, string>, Map<string, ReadonlyMap<string, string>>>();
const NONE_SEEN: ReadonlyMap<string, string> = new Map();
