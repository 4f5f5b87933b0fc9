import { describe, expect, test } from 'vitest';
import type { JqEngine, JqWork } from '../../src/jq/engine.js';
import { PlanningEngine, prefetchPlanned } from '../../src/jq/prefetch-rules.js';
import { memoisedJudge, type ExpressionJudge } from '../../src/judge/expression-memo.js';
import type { ImpactContext } from '../../src/judge/team-impact.js';
import { TEAMS } from '../repo/helpers.js';

/** jq as a stand-in: every expression compiles, and gives its input back; what it was asked, in order. */
function standIn(): { real: JqEngine; asked: string[]; prefetched: JqWork[] } {
  const asked: string[] = [];
  const prefetched: JqWork[] = [];
  const real: JqEngine = {
    validate: (expression) => (asked.push(`validate ${expression}`), { ok: true }),
    evaluate: (input, expression) => (asked.push(`evaluate ${expression} ${JSON.stringify(input)}`), { ok: true, values: [input] }),
    prefetch: (work) => void prefetched.push(work),
  };
  return { real, asked, prefetched };
}

/**
 * A judge that runs the expression on 1 and, where jq gives something back and the text starts
 * with `deep`, on 2 too (as the judge proves a rewrite only where the first answers lead): counting its calls.
 */
function counted(): { judge: ExpressionJudge; judged: string[] } {
  const judged: string[] = [];
  const judge: ExpressionJudge = (expression, context) => {
    judged.push(expression);
    const first = context.jq!.evaluate(1, expression);
    if (first.ok && first.values.length > 0 && expression.startsWith('deep')) context.jq!.evaluate(2, expression);
    return undefined;
  };
  return { judge, judged };
}

const context = (jq: JqEngine): ImpactContext => ({ teams: TEAMS, removedRelations: new Set(), jq });

describe("the plans' engine and the real judging's are one (issue 41)", () => {
  test('a verdict a plan reached with jq\'s own answers alone is not judged again; one it made up an answer for is', () => {
    const { real, asked } = standIn();
    const planning = new PlanningEngine(real);
    const { judge, judged } = counted();
    const verdicts = memoisedJudge(judge, () => planning.madeUp());
    const items = ['shallow', 'deep'];
    prefetchPlanned(real, items, () => {
      const planned = memoisedJudge(verdicts);
      return (item, engine) => void planned(item, context(engine));
    }, 2, planning);
    // The first plan made up every answer; the second had jq's answer for `shallow` on 1, and made up `deep` on 2.
    expect(judged).toEqual(['shallow', 'deep', 'shallow', 'deep']);
    expect(planning.plansOnly).toBe(false);
    for (const item of items) verdicts(item, context(planning));
    // Without the shared memo the real judging judged both again (six calls): `shallow` is the second plan's.
    expect(judged).toEqual(['shallow', 'deep', 'shallow', 'deep', 'deep']);
    // The second plan's calls jq answered, and the real judging's (the stand-in keeps no answers; jq's engine does): `shallow` once.
    expect(asked).toEqual(['evaluate shallow 1', 'evaluate deep 1', 'evaluate deep 1', 'evaluate deep 2']);
  });

  test('while a plan runs it writes down and makes up its answers; after, it is the real engine, every part of it', () => {
    const { real, asked, prefetched } = standIn();
    const planning = new PlanningEngine(real);
    planning.plan();
    expect(planning.plansOnly).toBe(true);
    expect(planning.fillsWith).toBe(real);
    expect(planning.prefetch).toBeUndefined();
    expect(planning.evaluate(1, '.a')).toEqual({ ok: true, values: [] });
    expect(planning.madeUp()).toBe(1);
    expect(asked).toEqual([]);
    const work = planning.work();
    planning.plan(work);
    // What the last plan held is jq's answer, and makes nothing up.
    expect(planning.evaluate(1, '.a')).toEqual({ ok: true, values: [1] });
    expect(planning.madeUp()).toBe(1);
    planning.judge();
    expect(planning.plansOnly).toBe(false);
    expect(planning.fillsWith).toBeUndefined();
    expect(planning.evaluate(3, '.b')).toEqual({ ok: true, values: [3] });
    planning.prefetch!({ validate: ['.c'] });
    expect(prefetched).toEqual([{ validate: ['.c'] }]);
    expect(planning.madeUp()).toBe(1);
  });
});
