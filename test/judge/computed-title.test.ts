/**
 * Issue 39, held-out m7/m7b: a title the expression computes (from code points, reversed, in another
 * case) was never met by its team. The classes of teams an expression runs with came from the strings
 * written in it, so "Data Science", one of many teams of its shape, was left to a team of its class that
 * the computed string does not meet, and the change was called unaffected. The expected verdict is jq's
 * own over every team of the org, before (titles) and after (identifiers).
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { Verdict } from '../../src/model/finding.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();
/** Teams of one shape (two words, identifier the slug), the computed one last. */
const TEAMS = ['Cloud Cost', 'Site Ops', 'Web Apps', 'Field Sales', 'Core Banking', 'Risk Desk', 'Data Science'].map((name) => ({ name, identifier: name.toLowerCase().replace(' ', '_') }));
const services = (calculation: string) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { c: { title: 'c', calculation, type: 'boolean' } } }], entities: { service: TEAMS.map((team, i) => ({ identifier: `s${i}`, title: `s${i}`, team: [team.name] })) } }, TEAMS);
const codePoints = (text: string) => `[${[...text].map((char) => char.codePointAt(0)).join(',')}]`;

/** Breaks when some team of the org gives another result with its identifier than with its title. */
function verdictOverEveryTeam(expression: string): Verdict {
  const run = (team: string) => JSON.stringify(jq.evaluate({ identifier: 's', title: 's', team: [team], properties: {}, relations: {} }, expression));
  return TEAMS.some((team) => run(team.name) !== run(team.identifier)) ? 'breaks' : 'unaffected';
}

describe('a calculation that computes the title it compares with', () => {
  it.each([
    [`.team | index(${codePoints('Data Science')} | implode) != null`, 'breaks'],
    [`.team | any(. == (${codePoints('ecneicS ataD')} | implode | explode | reverse | implode))`, 'breaks'],
    ['.team | any(. == ("ecneicS ataD" | explode | reverse | implode))', 'breaks'],
    [`.team | any(. == (${codePoints('Nobody Here')} | implode))`, 'unaffected'],
  ] as const)('%s: the verdict jq gives over every team of the org', (calculation, shows) => {
    const verdict = verdictOverEveryTeam(calculation);
    expect(verdict, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, services(calculation), 'calculationProperties.c.calculation');
    expect(finding.verdict).toBe(verdict);
    if (verdict === 'breaks') expect(finding.reason).toContain('a team "Data Science"');
  });
});
