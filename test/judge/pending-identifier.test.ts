/**
 * A team the org names by title only (no identifier yet): the migration assigns one, and the judge
 * stands in for it. The stand-in must not contain the title, or a substring test of the title
 * (`contains`, `test`) still matches after the migration and the break is judged unaffected.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { Finding, Verdict } from '../../src/model/finding.js';
import { expectedClass, expectedVerdict, judged, judgeTable, org, type Row } from './two-worlds.js';

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

/**
 * The verdict jq gives with the identifiers of two-worlds.ts, or the identifier-unknown review where a
 * team whose title is shaped like an identifier keeps the result with its title as identifier: no map
 * says it will not get it (test/judge/identifier-unknown.test.ts computes that case).
 */
function expectVerdictOrTitleAsIdentifier(finding: Finding, verdict: Verdict): void {
  if (verdict === 'breaks' && finding.verdict === 'review') expect(finding.reason).toMatch(/the same with identifier "(QA|Alpha|Beta)" for "\1"/);
  else expect(finding.verdict).toBe(verdict);
}

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

// Held-out check: an org that names its teams by title only, whose entities hold teams together.
// The contexts "as the org holds them" use the pending identifiers too: a value that only passes
// the teams on is the same teams in both worlds (substituted), not a change.
const heldTogether = (parts: Record<string, unknown>) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...parts }], entities: { service: [{ identifier: 'a', title: 'a', team: ['Data Science'] }, { identifier: 'b', title: 'b', team: ['Data Science', 'QA'] }] } }, TITLES_ONLY);

describe('teams held together, known by title only', () => {
  it.each(['"owned by \\(.team | join(","))"', '.team | join(" + ")', '.team | contains(["QA"])'])('calculation %s: its class as jq gives it', (calculation) => {
    const { finding } = judged(jq, heldTogether({ calculationProperties: { owners: { title: 'Owners', calculation, type: 'string' } } }), 'calculationProperties.owners.calculation');
    expectVerdictOrTitleAsIdentifier(finding, expectedVerdict(expectedClass(jq, 'entity', calculation), 'shown'));
  });

  it.each([['.event.diff.after.team'], ['[.event.diff.after.team[] | ascii_downcase]']])('automation mapping team %s: its class as jq gives it', (mapping) => {
    const snapshot = {
      ...heldTogether({}),
      actions: [
        {
          identifier: 'sync',
          title: 'Sync',
          trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' } },
          invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '.event.diff.after.identifier', team: mapping } },
        },
      ],
    } as ReturnType<typeof org>;
    const { finding } = judged(jq, snapshot, 'invocationMethod.mapping.team');
    expect(finding.verdict).toBe(expectedVerdict(expectedClass(jq, 'action-run', mapping, true), 'team-value'));
  });
});

// Held-out check: without identifiers, a comparison that the real identifiers keep (`test("^data";
// "i")` meets data_science) was called breaks, because the stand-in identifier meets nothing. Run
// also with the identifiers the team could be given (its title's slug, a string the expression
// holds): the same result with one of them leaves it to the identifier the migration assigns, a
// review; a change with every one of them is a break. jq on the real identifiers decides the rows.
describe('a change only an unknown identifier shows', () => {
  it.each([
    '.team | any(test("^data"; "i"))',
    '.team | map(ascii_downcase) | index("qa") != null',
    '.team | any(. == "QA" or . == "qa")',
    '.team | any(gsub("[^A-Za-z]"; "") | ascii_downcase | contains("alpha"))',
    '.team | index("QA") != null',
    '.team | any(ascii_downcase == "platform (eu)")',
  ])('%s', (calculation) => {
    const klass = expectedClass(jq, 'entity', calculation);
    const { finding } = judged(jq, snapshot(calculation), 'calculationProperties.owners.calculation');
    if (klass !== 'same') expectVerdictOrTitleAsIdentifier(finding, expectedVerdict(klass, 'shown'));
    else if (finding.verdict !== 'unaffected') {
      expect(finding.verdict).toBe('review');
      expect(finding.reason).toContain('identifier the migration assigns');
    }
  });
});

// Issue 39: without a teams map, the identifiers tried for a team known by title only are not picked
// by how the expression is spelled (its title's slug, its strings as written) but computed: stand-ins
// no string of the expression meets, and each string jq computes from the expression's literals
// alone. A literal written in another encoding that meets the identifier the team may get is met.
const ENCODED: Row[] = [
  { name: 'index of a base64 literal jq decodes to an identifier', expression: '.team | index("cWE=" | @base64d) != null', shows: 'changed' },
  { name: 'equality with a base64 literal jq decodes to an identifier', expression: '[.team[] | select(. == ("cWE=" | @base64d))] | length', shows: 'changed' },
];

judgeTable('a literal in another encoding, with no identifier known: the identifier the migration assigns decides, a review that names it', {
  jq,
  kind: 'entity',
  rows: ENCODED,
  snapshot: (row) => snapshot(row.expression),
  location: 'calculationProperties.owners.calculation',
  verdict: () => 'review',
  check: ({ finding }) => {
    expect(finding.reason).toContain('identifier the migration assigns');
    expect(finding.reason).toMatch(/with identifier "qa" for "[^"]+"/);
  },
});

judgeTable('the same literals once the identifiers are known: the class jq gives', {
  jq,
  kind: 'entity',
  rows: ENCODED,
  snapshot: (row) => org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { owners: { title: 'Owners', calculation: row.expression, type: 'boolean' } } }] }),
  location: 'calculationProperties.owners.calculation',
  verdict: (klass) => expectedVerdict(klass, 'shown'),
});
