import { describe, expect, test } from 'vitest';
import type { JqEngine } from '../../src/jq/engine.js';
import { PlanningEngine } from '../../src/jq/prefetch-rules.js';
import { extractReferences, type JqReferences } from '../../src/jq/references.js';
import { unfilledReads } from '../../src/judge/unfilled.js';
import type { JsonValue } from '../../src/model/json.js';

/** jq as a stand-in for `.entity.properties.region`: each run counted. */
function regionReader(): { real: JqEngine; runs: () => number } {
  let runs = 0;
  const region = (input: JsonValue) => ((input as { entity?: { properties?: Record<string, JsonValue> } }).entity?.properties?.region ?? null);
  const real: JqEngine = {
    validate: () => ({ ok: true }),
    evaluate: (input) => (runs++, { ok: true, values: [region(input)] }),
    prefetch: () => undefined,
  };
  return { real, runs: () => runs };
}

const expression = '.entity.properties.region';
const references = (extractReferences(expression) as { ok: true; references: JqReferences }).references;
const contexts: JsonValue[] = ['QA', 'Platform', 'Data'].map((team) => ({ entity: { identifier: 'e1', team: [team], properties: {} } }));

describe('a read no context fills, shown on the first context (issue 39)', () => {
  test('a plan asks jq to fill only the first of the contexts: the others are run only where it shows nothing', () => {
    const { real } = regionReader();
    const planning = new PlanningEngine(real);
    planning.plan();
    expect(unfilledReads(planning, expression, references, contexts)).toEqual([]);
    const planned = planning.work().evaluate ?? [];
    // The first context as it is, and filled with the probe value: two runs, not six.
    expect(planned.flatMap((work) => work.inputs)).toHaveLength(2);
  });

  test('jq runs the first context as it is and filled once, where that shows the read', () => {
    const { real, runs } = regionReader();
    expect(unfilledReads(real, expression, references, contexts)).toEqual([expression]);
    expect(runs()).toBe(2);
  });
});
