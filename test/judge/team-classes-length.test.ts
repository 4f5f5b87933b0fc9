/**
 * Issue 39, item 2: an expression is run over every team of the org, or over classes of teams proven
 * to behave alike, never a sample. `.team | map(length) | add` sees a team's value only through its
 * length: a team whose title and identifier are as long as each other gives the same in both worlds,
 * one whose identifier is shorter does not. The org below lists three teams of the first kind ahead of
 * one of the second (of the same spelling shape otherwise), so a sample of the first teams misses the change.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, teamsWithCalculation } from './two-worlds.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Dev', identifier: 'dvx' },
  { name: 'Ops', identifier: 'ops' },
  { name: 'Sre', identifier: 'sre' },
  { name: 'Payments', identifier: 'pay' },
];

const calculation = '.team | map(length) | add';

/** The org before the migration: each service holds its team's title. */
const snapshot = (teams: typeof TEAMS) => teamsWithCalculation(teams, calculation, { name: 'size', type: 'number', migrated: false, held: 'name', noUsers: true });

describe('teams told apart by what jq can see of them: their lengths', () => {
  it(`${calculation}: the Payments team's entities change value, so it breaks`, () => {
    const value = (team: string) => JSON.stringify(jq.evaluate({ team: [team] }, calculation));
    const changed = TEAMS.filter((team) => value(team.name) !== value(team.identifier)).map((team) => team.identifier);
    expect(changed).toEqual(['pay']);
    const { finding } = judged(jq, snapshot(TEAMS), 'calculationProperties.size.calculation');
    expect(finding.verdict).toBe('breaks');
  });

  it('with every title as long as its identifier, the same expression gives the same in both worlds: unaffected', () => {
    const { finding } = judged(jq, snapshot(TEAMS.slice(0, 3)), 'calculationProperties.size.calculation');
    expect(finding.verdict).toBe('unaffected');
  });
});
