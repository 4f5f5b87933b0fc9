/**
 * Issue 39: what an expression reads is found by evaluation, never by the key being spelled. A key
 * the expression builds (`.[("ow" + "ner")]`) reads its input whole (team-reach.ts), so it is run
 * with team values in place; it is never dropped without a finding, a note or a verified entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { expectedClass, expectedVerdict, judged, servicesWithCalculations } from './two-worlds.js';

let jq: JqEngine;
beforeAll(async () => {
  jq = await loadJqEngine();
});
afterAll(async () => {
  await jq.close?.();
});

const ROWS = [
  // "QA" is no team the first probe samples, and the key's own literals come first in the text.
  ['a built key compared with a title', '(.[("t" + "eam")] | first // "") == "QA"'],
  ['a built key, encoded, compared with an encoded title ("QA")', '(.[("tea" + "m")] | first // "") | @base64 == "UUE="'],
  ['a built key through a variable, encoded', '("te" + "am") as $k | .[$k] | map(@base64) | index("UUE=") != null'],
] as const;

describe('a key the expression builds still reads the team', () => {
  for (const [what, calculation] of ROWS) {
    it(`${what}: judged by running it`, () => {
      const { finding } = judged(jq, servicesWithCalculations({ probe: [calculation, 'boolean'] }), 'calculationProperties.probe.calculation');
      const klass = expectedClass(jq, 'entity', calculation);
      expect(klass).toBe('changed');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'shown'));
    });
  }
});

describe('an expression that reads its input whole, where jq cannot run it', () => {
  /** jq loaded, but giving no answer for the expression (it times out): whether it reads team values is unknown. */
  const stalled = (): JqEngine => ({ ...jq, validate: (expression) => (ROWS.some(([, c]) => c === expression) ? { ok: false, failure: 'timeout', error: 'timed out' } : jq.validate(expression)), evaluate: (input, expression) => jq.evaluate(input, expression) });
  for (const [what, calculation] of ROWS) {
    it(`${what}: cannot tell, so review with that reason, never dropped`, () => {
      const report = analyze(buildCatalog(servicesWithCalculations({ probe: [calculation, 'boolean'] }), { jq: stalled() }));
      const finding = report.findings.find((f) => f.location === 'calculationProperties.probe.calculation');
      expect(finding?.verdict).toBe('review');
      expect(finding?.reason).toContain('could not run it');
    });
  }

  it('one that reads only fixed paths holding no team is still no finding', () => {
    const report = analyze(buildCatalog(servicesWithCalculations({ probe: ['.properties.size | tostring', 'string'] }), { jq: stalled() }));
    expect(report.findings.filter((f) => f.location === 'calculationProperties.probe.calculation')).toEqual([]);
  });
});
