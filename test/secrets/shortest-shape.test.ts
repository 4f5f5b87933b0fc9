import { describe, expect, it } from 'vitest';
import { REDACTED, RedactionTally, redactTokenShapes } from '../../src/secrets/token-shapes.js';

// A string shorter than the shortest value any token shape matches is left without a scan: the
// shortest of each shape is still found, and a string one character short of the shortest is kept.

const SHORTEST: Record<string, string> = {
  'Slack tokens': 'xoxb-0123456789',
  'AWS access keys': 'AKIAABCDEFGHIJKLMNOP',
  'bearer or basic credentials': 'Token abcdefghijklmnop',
  'Stripe keys': `sk_live_${'a'.repeat(16)}`,
  'JWTs': `eyJabcde.eyJabcde.${'a'.repeat(10)}`,
  'GitHub tokens': `github_pat_${'a'.repeat(22)}`,
};

describe('redactTokenShapes on short strings', () => {
  it('finds the shortest value of each shape, alone in its string', () => {
    for (const [shape, value] of Object.entries(SHORTEST)) {
      const tally = new RedactionTally();
      expect(redactTokenShapes(value, tally).endsWith(REDACTED)).toBe(true);
      expect(tally.get(shape)).toBe(1);
    }
  });

  it('keeps a string one character short of the shortest shape as it is', () => {
    const tally = new RedactionTally();
    expect(redactTokenShapes('xoxb-012345678', tally)).toBe('xoxb-012345678');
    expect(tally.size).toBe(0);
  });
});
