/**
 * Issue 39, item 7: after the migration literals are judged against the org's identifiers by what
 * the expression does with them, not only by equality. A literal that is one team's identifier,
 * used as a prefix or a part (`startswith("checkout")`, `contains("core")`), meets today every team
 * whose identifier it starts or is part of: it names one team and selects more. Nothing tells
 * whether those are meant, so it is a review naming them (as a literal that was another team's
 * title is), never "written for identifiers". Which teams it meets is computed here with jq, on an
 * entity of each team as the migrated org holds it.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, teamsWithCalculation } from './two-worlds.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Checkout', identifier: 'checkout' },
  { name: 'Billing', identifier: 'checkout-billing' },
  { name: 'Core', identifier: 'core' },
  { name: 'Core Banking', identifier: 'core-banking' },
  { name: 'Payments', identifier: 'payments' },
];

const snapshot = (calculation: string) => teamsWithCalculation(TEAMS, calculation);

/** Whether the calculation lets through an entity holding this team value. */
const lets = (calculation: string, value: string) => JSON.stringify(jq.evaluate({ team: [value] }, calculation)) === '{"ok":true,"values":[true]}';

/** The identifiers of the teams an entity of which, holding the team by `held` (its identifier today), the calculation lets through. */
const metBy = (teams: readonly { name: string; identifier: string }[], calculation: string, held: 'name' | 'identifier' = 'identifier') => teams.filter((team) => lets(calculation, team[held])).map((team) => team.identifier);

const metToday = (calculation: string) => metBy(TEAMS, calculation);

const ROWS: { calculation: string; names: string }[] = [
  { calculation: '.team | any(startswith("checkout"))', names: 'checkout' },
  { calculation: '.team | any(contains("core"))', names: 'core' },
  { calculation: '.team | any(. == "checkout")', names: 'checkout' },
  { calculation: '.team | any(ascii_downcase == "core")', names: 'core' },
];

describe('a literal that names one team by identifier, in a migrated org', () => {
  for (const { calculation, names } of ROWS) {
    const others = () => metToday(calculation).filter((identifier) => identifier !== names);
    it(`${calculation}: a review naming the other teams it meets today, if any, else written for identifiers`, () => {
      expect(metToday(calculation)).toContain(names);
      const { finding } = judged(jq, snapshot(calculation), 'calculationProperties.flag.calculation');
      expect(finding.verdict).toBe(others().length > 0 ? 'review' : 'unaffected');
      for (const identifier of others()) expect(finding.reason).toContain(JSON.stringify(identifier));
      if (others().length > 0) expect(finding.reason).toContain('nothing tells whether it is meant for them');
    });
  }
});

describe('a literal that is no team\'s identifier but a part of several, in a migrated org', () => {
  // Titles are capitalised: "core" is a part of no title, so it matched no team before and meets some now.
  const PARTS = [
    { name: 'Core Banking', identifier: 'core-banking' },
    { name: 'Core Ledger', identifier: 'core-ledger' },
    { name: 'Payments', identifier: 'payments' },
  ];
  const calculation = '.team | any(contains("core"))';
  const partsOrg = teamsWithCalculation(PARTS, calculation);

  it(`${calculation}: a review naming the teams it meets today, never written for identifiers`, () => {
    expect(metBy(PARTS, calculation, 'name')).toEqual([]);
    expect(metBy(PARTS, calculation)).toEqual(['core-banking', 'core-ledger']);
    const { finding } = judged(jq, partsOrg, 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('review');
    for (const identifier of ['core-banking', 'core-ledger']) expect(finding.reason).toContain(JSON.stringify(identifier));
    expect(finding.reason).not.toContain('"payments"');
  });
});

describe('a literal naming no team that is a part of one identifier, in an org whose data holds identifiers', () => {
  // No flag says the org migrated, but its entities hold identifiers: "core" matched no title before and meets cb_core now.
  const ONE = [
    { name: 'Core Banking', identifier: 'cb_core' },
    { name: 'Payments', identifier: 'payments' },
  ];
  const calculation = '.team | any(contains("core"))';
  it(`${calculation}: a review naming the one team it meets`, () => {
    expect(ONE.map((team) => [lets(calculation, team.name), lets(calculation, team.identifier)])).toEqual([
      [false, true],
      [false, false],
    ]);
    const oneOrg = teamsWithCalculation(ONE, calculation, { migrated: false });
    const { finding } = judged(jq, oneOrg, 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('"cb_core"');
  });
});

describe('a pattern naming no team, judged by the teams it meets, in a migrated org', () => {
  const PARTS = [
    { name: 'Core Banking', identifier: 'core-banking' },
    { name: 'Core Ledger', identifier: 'core-ledger' },
    { name: 'Payments', identifier: 'payments' },
  ];
  const partsOrg = (calculation: string) => teamsWithCalculation(PARTS, calculation);

  it('.team | any(test("^core-")): a prefix of two identifiers, and of any like them, so a review naming them', () => {
    const calculation = '.team | any(test("^core-"))';
    expect(metBy(PARTS, calculation)).toEqual(['core-banking', 'core-ledger']);
    expect(lets(calculation, 'core-payroll')).toBe(true);
    const { finding } = judged(jq, partsOrg(calculation), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('review');
    for (const identifier of ['core-banking', 'core-ledger']) expect(finding.reason).toContain(JSON.stringify(identifier));
  });

  it('.team | any(test("^(core-banking|core-ledger)$")): it names each whole identifier it meets, so written for identifiers', () => {
    const calculation = '.team | any(test("^(core-banking|core-ledger)$"))';
    expect(metBy(PARTS, calculation)).toEqual(['core-banking', 'core-ledger']);
    expect(lets(calculation, 'core-banking-eu')).toBe(false);
    const { finding } = judged(jq, partsOrg(calculation), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('unaffected');
  });
});

describe('a literal naming no team, told from a name the expression reads by running it, in a migrated org', () => {
  // Every identifier set apart holds the word "team": a test by the word alone cannot tell the two rows apart.
  const WORDED = [
    { name: 'QA Team', identifier: 'qa-team' },
    { name: 'SRE Team', identifier: 'sre-team' },
    { name: 'Payments', identifier: 'payments' },
  ];
  const wordedOrg = (calculation: string) => teamsWithCalculation(WORDED, calculation);

  it('.team | any(contains("team")): "team" is a part of two identifiers, so a review naming them', () => {
    const calculation = '.team | any(contains("team"))';
    expect(metBy(WORDED, calculation, 'name')).toEqual([]);
    expect(metBy(WORDED, calculation)).toEqual(['qa-team', 'sre-team']);
    const { finding } = judged(jq, wordedOrg(calculation), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('review');
    for (const identifier of ['qa-team', 'sre-team']) expect(finding.reason).toContain(JSON.stringify(identifier));
  });

  for (const calculation of ['has("team") and (.team | any(. == "qa-team" or . == "sre-team"))', 'has("team") and (.team | any(startswith("qa-team") or startswith("sre-team")))']) {
    it(`${calculation}: "team" is the key it reads, no team it meets`, () => {
      expect(metBy(WORDED, calculation)).toEqual(['qa-team', 'sre-team']);
      // Read under another key, the same teams stay out: the word is a name, not a value met by team values.
      expect(JSON.stringify(jq.evaluate({ team: ['qa-team'] }, calculation.replace('has("team")', 'has("squad")')))).toBe('{"ok":true,"values":[false]}');
      const { finding } = judged(jq, wordedOrg(calculation), 'calculationProperties.flag.calculation');
      expect(finding.verdict).toBe('unaffected');
      expect(finding.reason).not.toContain('meets');
    });
  }
});

describe('the word "team" compared with team values is a value like any other, in a migrated org', () => {
  const TEAMS2 = [
    { name: 'QA', identifier: 'qa' },
    { name: 'SRE', identifier: 'sre' },
  ];
  const calculation = '.team | any(. == "team")';
  it(`${calculation}: no team holds "team" today, so it matches nothing now`, () => {
    for (const team of TEAMS2) expect(JSON.stringify(jq.evaluate({ team: [team.identifier] }, calculation))).toBe('{"ok":true,"values":[false]}');
    expect(JSON.stringify(jq.evaluate({ team: ['team'] }, calculation))).toBe('{"ok":true,"values":[true]}');
    const twoTeams = teamsWithCalculation(TEAMS2, calculation);
    const { finding } = judged(jq, twoTeams, 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('"team" is no team of the org today');
  });
});

describe('the teams a literal naming no team meets are asked of jq together', () => {
  // Nothing cached between the two runs: other team names and another spelling of the same expression.
  const requestsFor = (count: number, name: string, calculation: string) => {
    // Every team but one holds a "-": `contains("-")` meets them all, as a part of each.
    const teams = [{ name: 'Ops', identifier: 'ops' }, ...Array.from({ length: count }, (_, i) => ({ name: `${name} ${i}`, identifier: `${name.toLowerCase()}-${i}` }))];
    const snapshot = teamsWithCalculation(teams, calculation, { services: 3, noUsers: true });
    const before = jq.requests!();
    const { finding } = judged(jq, snapshot, 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain(`"${name.toLowerCase()}-${count - 1}"`);
    return jq.requests!() - before;
  };

  it('18 teams more cost no request per team (a larger batch may be split once)', () => {
    const six = requestsFor(6, 'Squad', '.team | any(contains("-"))');
    expect(requestsFor(24, 'Crew', '.team|any(contains("-"))') - six).toBeLessThanOrEqual(2);
  });
});
