/**
 * Issue 39: what an expression reads is found by evaluation, never by the key being spelled. A key
 * the expression builds (`.[("ow" + "ner")]`) reads its input whole (team-reach.ts), so it is run
 * with team values in place; it is never dropped without a finding, a note or a verified entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
