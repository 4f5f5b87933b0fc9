import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';

let batched: JqEngine;
let alone: JqEngine;
beforeAll(async () => {
  batched = await loadJqEngine();
  alone = await loadJqEngine();
});
afterAll(async () => {
  await batched.close?.();
  await alone.close?.();
});

describe('jq work planned ahead of the rules', () => {
  it('gives the same report as asking jq one call at a time, in a fraction of the requests', () => {
    const org = generateSyntheticOrg({ blueprints: 150, actions: 300, pages: 60, distinctExpressions: true });
    // The same engine without `prefetch`: every answer comes from a lone call, as before batching.
    const oneAtATime: JqEngine = {
      validate: (expression) => alone.validate(expression),
      evaluate: (input, expression) => alone.evaluate(input, expression),
    };
    const before = alone.requests!();
    const expected = analyze(buildCatalog(org, { jq: oneAtATime }));
    const loneRequests = alone.requests!() - before;

    const start = batched.requests!();
    const actual = analyze(buildCatalog(org, { jq: batched }));
    const batchedRequests = batched.requests!() - start;

    expect(actual).toEqual(expected);
    expect(expected.findings.some((finding) => finding.reason.includes('run by jq'))).toBe(true);
    expect(loneRequests).toBeGreaterThan(500);
    expect(batchedRequests).toBeLessThan(loneRequests / 20);
  });
});
