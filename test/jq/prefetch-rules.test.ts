import { describe, expect, it } from 'vitest';
import type { JqEngine } from '../../src/jq/engine.js';
import { useEnginePair } from '../support/engine-pair.js';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';

const engines = useEnginePair();

describe('jq work planned ahead of the rules', () => {
  it('gives the same report as asking jq one call at a time, in a fraction of the requests', () => {
    const org = generateSyntheticOrg({ blueprints: 150, actions: 300, pages: 60, distinctExpressions: true });
    // The same engine without `prefetch`: every answer comes from a lone call, as before batching.
    const oneAtATime: JqEngine = {
      validate: (expression) => engines.alone().validate(expression),
      evaluate: (input, expression) => engines.alone().evaluate(input, expression),
    };
    const before = engines.alone().requests!();
    const expected = analyze(buildCatalog(org, { jq: oneAtATime }));
    const loneRequests = engines.alone().requests!() - before;

    const start = engines.batched().requests!();
    const actual = analyze(buildCatalog(org, { jq: engines.batched() }));
    const batchedRequests = engines.batched().requests!() - start;

    expect(actual).toEqual(expected);
    expect(expected.findings.some((finding) => finding.reason.includes('run by jq'))).toBe(true);
    expect(loneRequests).toBeGreaterThan(500);
    expect(batchedRequests).toBeLessThan(loneRequests / 20);
    // The lone engine answers about 4,000 requests one by one: 15-20 s on a busy 2-core runner.
  }, 90_000);
});
