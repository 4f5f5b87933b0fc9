import type { Catalog } from '../catalog/catalog.js';
import type { JsonValue } from '../model/json.js';
import type { Rule } from '../rules/rule.js';
import type { JqEngine, JqWork } from './engine.js';

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
  const recorder = recordingEngine();
  const dryRun: Catalog = { ...catalog, jq: recorder.engine };
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
 * Says every expression compiles and gives no output on every input: the answer that lets a rule
 * go furthest (every probe runs all its samples), so the list holds what the real run will ask.
 */
function recordingEngine(): { engine: JqEngine; work: () => JqWork } {
  const validate = new Set<string>();
  // The inputs as given: the engine writes each out once, where it checks its cache.
  const evaluate = new Map<string, JsonValue[]>();
  const engine: JqEngine = {
    plansOnly: true,
    validate(expression) {
      // Seen before, it was planned in full the first time; saying it does not compile skips the
      // rest of its assessment. Big orgs repeat expressions, and planning each again costs more
      // than the few runs it could add (the real run asks those itself, a probe at a time).
      if (validate.has(expression)) return { ok: false, error: 'planned already' };
      validate.add(expression);
      return { ok: true };
    },
    evaluate(input, expression) {
      let inputs = evaluate.get(expression);
      if (!inputs) evaluate.set(expression, (inputs = []));
      inputs.push(input);
      return { ok: true, values: [] };
    },
  };
  const work = (): JqWork => ({
    validate: [...validate],
    evaluate: [...evaluate].map(([expression, inputs]) => ({ expression, inputs })),
  });
  return { engine, work };
}
