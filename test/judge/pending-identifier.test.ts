/**
 * A team the org names by title only (no identifier yet): the migration assigns one, and the judge
 * stands in for it. The stand-in must not contain the title, or a substring test of the title
 * (`contains`, `test`) still matches after the migration and the break is judged unaffected.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, org } from './two-worlds.js';

const TITLES_ONLY = [{ name: 'Data Science' }, { name: 'QA' }, { name: 'Platform (EU)' }, { name: 'Alpha' }, { name: 'Beta' }];

const jq = useJqEngine();

const snapshot = (calculation: string) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { owners: { title: 'Owners', calculation, type: 'boolean' } } }] }, TITLES_ONLY);

describe('a team known by title only', () => {
  for (const expression of ['.team | contains(["Data Science"])', '.team | any(test("Data Science"))', '.team | any(ascii_downcase | contains("data science"))']) {
    it(`${expression}: computed as changed, judged as breaks`, () => {
      const klass = expectedClass(jq, 'entity', expression);
      expect(klass).toBe('changed');
      const { finding } = judged(jq, snapshot(expression), 'calculationProperties.owners.calculation');
      expect(finding.verdict).toBe(expectedVerdict(klass, 'shown'));
    });
  }
});

describe('pendingIdentifier', () => {
  it('holds no title, in any case, and is the same on every call', async () => {
    const { pendingIdentifier } = await import('../../src/judge/worlds.js');
    for (const title of ['Data Science', 'QA', 'den', 'ENTI', 'identifier', '<', 'A']) {
      expect(pendingIdentifier(title).toLowerCase()).not.toContain(title.toLowerCase());
      expect(pendingIdentifier(title)).toBe(pendingIdentifier(title));
    }
    expect(pendingIdentifier('Data Science')).not.toBe(pendingIdentifier('QA'));
  });
});
