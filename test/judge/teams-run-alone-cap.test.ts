/**
 * After the migration, whether an expression is written for identifiers, and which teams a literal
 * meets, is run with each of the org's teams alone, up to a bound of ours (200). An org with more
 * teams is judged on the first of them, and the reason says so, never silently.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, teamsWithCalculation } from './two-worlds.js';

const jq = useJqEngine();

const teams = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `Team ${i}`, identifier: `team-${i}` }));

const snapshot = (count: number) => teamsWithCalculation(teams(count), '.team | any(. == "team-7")', { services: 10, noUsers: true });

describe('teams run alone after the migration', () => {
  it('an org of 205 teams: written for identifiers, and the reason says 5 teams were not run alone', () => {
    expect(JSON.stringify(jq.evaluate({ team: ['team-7'] }, '.team | any(. == "team-7")'))).toBe('{"ok":true,"values":[true]}');
    const { finding } = judged(jq, snapshot(205), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('unaffected');
    expect(finding.reason).toContain("the first 200 of the org's teams were run alone, 5 more were not");
  });

  it('an org of 12 teams: every team run alone, nothing to say', () => {
    const { finding } = judged(jq, snapshot(12), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('unaffected');
    expect(finding.reason).not.toContain('were run alone');
  });
});
