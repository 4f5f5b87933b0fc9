import type { JqEngine, JqWork } from '../jq/engine.js';
import type { JsonValue } from '../model/json.js';

/**
 * A repository scan asks jq one call at a time as it judges file after file: a compile check per
 * expression, each calculation run on sample entities, each expression's contexts. Each call costs
 * a worker round trip and jq's start (about 1 ms); 20,000 files of a platform repository asked
 * 6,750 of them (issue 41). The scan therefore judges every file once against an engine that only
 * writes down what it is asked (`plannedJq`), hands that list to the real engine's `prefetch`,
 * which answers it in a few large requests, and then judges for real, finding the answers in the
 * engine's caches. What the plan missed, or a batch could not answer for certain, the real run asks
 * jq itself, as without the plan: the plan changes when jq is asked, never what it answers.
 */

/**
 * Plans what judging `items` will ask jq and has `jq` answer it in batches, before the real
 * judging: every item judged against a plan, that work answered; then the items that asked jq
 * anything judged again against a plan that answers what the first held (an item that asked
 * nothing asks nothing with answers either), and that work answered. `judging` makes each pass's
 * judge, so each keeps its own memo and caches. A repository with little jq costs one planning
 * pass over its files.
 */
export function prefetchPlanned<T>(jq: JqEngine, items: readonly T[], judging: () => (item: T, engine: JqEngine) => void): void {
  if (!jq.prefetch) return; // an engine that cannot batch is asked one call at a time, as without a plan
  const first = plannedJq();
  const judgeFirst = judging();
  const asking: T[] = [];
  for (const item of items) {
    const before = first.calls();
    judgeFirst(item, first.engine);
    if (first.calls() > before) asking.push(item);
  }
  const work = first.work();
  jq.prefetch(work);
  const second = plannedJq({ engine: jq, work });
  const judgeSecond = judging();
  for (const item of asking) judgeSecond(item, second.engine);
  jq.prefetch(second.work());
}

/**
 * An engine that says every expression compiles and gives no output on every input (the answer
 * that lets the judge go furthest), writing down each expression to compile and each input it is
 * to run on. An expression met again was planned in full the first time: it is said not to compile,
 * which ends its assessment there. Given an earlier plan and the engine that answered it, what that
 * plan held is answered by that engine (from its caches): the judge then goes where the real
 * answers lead (the rewrites it proves, the calculations that pass team values on), and the work
 * found there is written down. `calls` counts what it was asked, answered or not.
 */
export function plannedJq(earlier?: { engine: JqEngine; work: JqWork }): { engine: JqEngine; work: () => JqWork; calls: () => number } {
  const answered = earlier && answeredCalls(earlier.work);
  const validate = new Set<string>();
  const evaluate = new Map<string, JsonValue[]>();
  let calls = 0;
  const engine: JqEngine = {
    validate(expression) {
      calls++;
      if (answered?.validate.has(expression)) return earlier!.engine.validate(expression);
      if (validate.has(expression)) return { ok: false, error: 'planned already' };
      validate.add(expression);
      return { ok: true };
    },
    evaluate(input, expression) {
      calls++;
      if (answered?.evaluate.get(expression)?.has(JSON.stringify(input))) return earlier!.engine.evaluate(input, expression);
      const inputs = evaluate.get(expression);
      if (inputs) inputs.push(input);
      else evaluate.set(expression, [input]);
      return { ok: true, values: [] };
    },
  };
  return { engine, work: () => ({ validate: [...validate], evaluate: [...evaluate].map(([expression, inputs]) => ({ expression, inputs })) }), calls: () => calls };
}

/** The calls a plan holds: expressions to compile, and each expression's inputs as JSON text. */
function answeredCalls(work: JqWork): { validate: ReadonlySet<string>; evaluate: ReadonlyMap<string, ReadonlySet<string>> } {
  return {
    validate: new Set(work.validate ?? []),
    evaluate: new Map((work.evaluate ?? []).map(({ expression, inputs }) => [expression, new Set(inputs.map((input) => JSON.stringify(input)))])),
  };
}
