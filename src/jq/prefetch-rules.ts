import { catalogOf, type Catalog } from '../catalog/catalog.js';
import type { JsonValue } from '../model/json.js';
import type { Rule } from '../rules/rule.js';
import { jsonText, type CompileResult, type EvaluateResult, type JqEngine, type JqWork } from './engine.js';

/**
 * Rules ask jq one expression at a time, and each call costs jq's start (about 1 ms), so an org
 * whose thousands of expressions are all distinct spends its analysis starting jq. A dry run of
 * the rules against an engine that only writes down what it is asked lists that work ahead; the
 * real engine then answers it in a few large requests (JqEngine.prefetch), and the real run finds
 * the answers in its caches. The dry run's own answers are never used: what it missed, or what a
 * batch could not answer for certain, the real run asks jq itself, exactly as without this.
 */
export function prefetchRuleJq(catalog: Catalog, rules: readonly Rule[], judgeRule: (catalog: Catalog, rule: Rule) => unknown): void {
  const jq = catalog.jq;
  if (!jq?.prefetch) return;
  const recorder = recordingEngine(undefined, jq);
  const dryRun = catalogOf({ ...catalog, jq: recorder.engine });
  for (const rule of rules) {
    if (rule.asksJq === false) continue;
    try {
      judgeRule(dryRun, rule);
    } catch {
      // The real run reports it.
    }
  }
  jq.prefetch(recorder.work());
}

/**
 * Plans what judging `items` will ask jq and has `jq` answer it in batches, before the real
 * judging (a repository scan's files, issue 41): every item judged against a recorder, that work
 * answered; then the items that asked jq anything judged again against a recorder that answers
 * what the first held, so the judge goes where the real answers lead (the rewrites it proves, the
 * calculations that pass team values on), and that work answered; `passes: 1` where answers lead
 * nowhere new. `judging` makes each pass's judge. Every pass is judged against `planning`, which
 * is the real engine once the plans are done: the real judging takes it too (PlanningEngine).
 */
export function prefetchPlanned<T>(jq: JqEngine, items: readonly T[], judging: () => (item: T, engine: JqEngine) => void, passes: 1 | 2 = 2, planning = new PlanningEngine(jq)): void {
  if (!jq.prefetch) return; // an engine that cannot batch is asked one call at a time, as without a plan
  planning.plan();
  const judgeFirst = judging();
  const asking = items.filter((item) => {
    const before = planning.calls();
    judgeFirst(item, planning);
    return planning.calls() > before;
  });
  const work = planning.work();
  jq.prefetch(work);
  if (passes === 2) {
    planning.plan(work);
    const judgeSecond = judging();
    for (const item of asking) judgeSecond(item, planning);
    jq.prefetch(planning.work());
  }
  planning.judge();
}

/**
 * One engine for a scan's plans and its real judging (issue 41): while a plan runs it answers as
 * `recordingEngine` does, then it is `real` itself. Being one object, it is one key in the verdict
 * memo (src/judge/expression-memo.ts keys jq by identity), and `madeUp` counts the answers the
 * plans made up: a verdict reached while it did not grow had jq's own answers alone, and is the
 * real judging's verdict, which need not judge it again (the second plan judged 380 of the bench
 * repository's 940 calculations so).
 */
export class PlanningEngine implements JqEngine {
  private recorder: ReturnType<typeof recordingEngine> | undefined;
  private madeUpBefore = 0;

  constructor(readonly real: JqEngine) {}

  /** A plan starts: answered by the real engine where `earlier` (the last plan's work, answered) holds the call. */
  plan(earlier?: JqWork): void {
    this.judge();
    this.recorder = recordingEngine(earlier && { engine: this.real, work: earlier }, this.real);
  }

  /** The plans are done: from now on every call is the real engine's. */
  judge(): void {
    this.madeUpBefore = this.madeUp();
    this.recorder = undefined;
  }

  work(): JqWork { return this.recorder?.work() ?? {}; }
  calls(): number { return this.recorder?.calls() ?? 0; }

  /** How many answers the plans have made up so far (every one not jq's own). */
  madeUp(): number {
    return this.madeUpBefore + (this.recorder?.madeUp() ?? 0);
  }

  get plansOnly(): boolean {
    return this.recorder !== undefined;
  }

  get fillsWith(): JqEngine | undefined {
    return this.recorder && this.real;
  }

  validate(expression: string): CompileResult {
    return (this.recorder?.engine ?? this.real).validate(expression);
  }

  evaluate(input: JsonValue, expression: string): EvaluateResult {
    return (this.recorder?.engine ?? this.real).evaluate(input, expression);
  }

  // The real engine's other parts the judge uses, while no plan runs (a plan's recorder has none);
  // the run's own counts and budget are asked of the real engine.
  get prefetch(): JqEngine['prefetch'] { return this.recorder ? undefined : this.real.prefetch; }
  get evaluateEach(): JqEngine['evaluateEach'] { return this.recorder ? undefined : this.real.evaluateEach; }
  get answersAsJq(): boolean | undefined { return this.recorder ? undefined : this.real.answersAsJq; }
}

/**
 * An engine that says every expression compiles and gives no output on every input (the answer
 * that lets the judge go furthest: every probe runs all its samples), writing down each expression
 * to compile and each input it is to run on. An expression met again was planned in full the first
 * time: it is said not to compile, which ends its assessment there (big orgs repeat expressions,
 * and planning each again costs more than the few runs it could add). Given an earlier plan and the
 * engine that answered it, what that plan held is answered by that engine (from its caches). `calls`
 * counts what it was asked, answered or not, `madeUp` what it answered itself. `fillsWith`: the real
 * engine, which fills the contexts' calculations (JqEngine.fillsWith).
 */
export function recordingEngine(earlier?: { engine: JqEngine; work: JqWork }, fillsWith?: JqEngine): { engine: JqEngine; work: () => JqWork; calls: () => number; madeUp: () => number } {
  const answered = earlier && answeredCalls(earlier.work);
  const validate = new Set<string>();
  // The inputs as given: the engine writes each out once, where it checks its cache.
  const evaluate = new Map<string, JsonValue[]>();
  let calls = 0;
  let madeUp = 0;
  const engine: JqEngine = {
    plansOnly: true,
    ...(fillsWith && { fillsWith }),
    validate(expression) {
      calls++;
      if (answered?.validate.has(expression)) return earlier!.engine.validate(expression);
      madeUp++;
      if (validate.has(expression)) return { ok: false, error: 'planned already' };
      validate.add(expression);
      return { ok: true };
    },
    evaluate(input, expression) {
      calls++;
      // Keyed by the engine's own text of each input, written once per object: the second plan asks
      // about a hundred thousand calls over a few thousand sample objects (issue 41).
      if (answered?.evaluate.get(expression)?.has(jsonText(input))) return earlier!.engine.evaluate(input, expression);
      let inputs = evaluate.get(expression);
      if (!inputs) evaluate.set(expression, (inputs = []));
      inputs.push(input);
      madeUp++;
      return { ok: true, values: [] };
    },
  };
  // Every expression run is to compile too: jq runs in batches only what it compiled, and asked the rest
  // one call at a time (the pieces constant-strings.ts runs on null): the bench scan's requests fall from 294 to 157.
  const compile = () => [...new Set([...validate, ...[...evaluate.keys()].filter((expression) => !answered?.validate.has(expression))])];
  return { engine, work: () => ({ validate: compile(), evaluate: [...evaluate].map(([expression, inputs]) => ({ expression, inputs })) }), calls: () => calls, madeUp: () => madeUp };
}

/** The calls a plan holds: expressions to compile, and each expression's inputs as JSON text. */
function answeredCalls(work: JqWork): { validate: ReadonlySet<string>; evaluate: ReadonlyMap<string, ReadonlySet<string>> } {
  return {
    validate: new Set(work.validate ?? []),
    evaluate: new Map((work.evaluate ?? []).map(({ expression, inputs }) => [expression, new Set(inputs.map(jsonText))])),
  };
}
