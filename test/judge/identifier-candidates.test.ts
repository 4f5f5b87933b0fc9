/**
 * Issue 39, held-out miss: the identifiers the migration could give a team known by title only are
 * strings jq computes from the expression's literals (and the title in an identifier's characters), as they are. A literal cut to
 * the characters an identifier may hold ("^Search( |$)" → "Search", a word of it) is no string the
 * expression computes: tried as the team's identifier, it kept the result and turned a break into a review.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { Verdict } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();
const TITLE = 'Search & Discovery';
const TEAMS = [{ name: TITLE }, { name: 'Platform', identifier: 'platform' }];
const IDENTIFIER_SHAPED = /^[A-Za-z0-9@_.+:/=-]+$/;

/** The title in an identifier's characters: each run of other characters as "_", "-" or nothing, in its case and lower case. */
const titleSpellings = (title: string) => ['_', '-', ''].flatMap((joint) => {
  const text = title.split(/[^A-Za-z0-9]+/).filter(Boolean).join(joint);
  return [text, text.toLowerCase()];
});

/** What jq computes from each literal alone (run on null), kept where it could be an identifier, and one no string meets. */
function possibleIdentifiers(literals: readonly string[]): string[] {
  const computed = literals.flatMap((literal) => {
    const result = jq.evaluate(null, JSON.stringify(literal));
    return result.ok ? result.values.filter((value): value is string => typeof value === 'string') : [];
  });
  return [...new Set([...titleSpellings(TITLE), ...computed.filter((text) => IDENTIFIER_SHAPED.test(text) && text.length > 1), 'fresh_7919'])];
}

const verdictOver = (changedWith: boolean[]): Verdict => (changedWith.every(Boolean) ? 'breaks' : changedWith.some(Boolean) ? 'review' : 'unaffected');

const services = (parts: object): OrgSnapshot =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...parts }], entities: { service: [{ identifier: 's', title: 's', team: [TITLE] }, { identifier: 't', title: 't', team: ['Platform'] }] } }, TEAMS);

describe(`a calculation over "${TITLE}", known by title only`, () => {
  it.each([
    ['.team | any(.[]; test("^Search( |$)"))', ['^Search( |$)'], 'breaks'],
    ['.team | any(.[]; test("^Search & D"))', ['^Search & D'], 'breaks'],
    ['.team | any(.[]; startswith("Search"))', ['Search'], 'review'],
  ] as const)('%s: the verdict jq gives over every identifier the migration could assign', (calculation, literals, shows) => {
    const run = (team: string) => JSON.stringify(jq.evaluate({ identifier: 's', title: 's', team: [team], properties: {}, relations: {} }, calculation));
    const verdict = verdictOver(possibleIdentifiers(literals).map((identifier) => run(TITLE) !== run(identifier)));
    expect(verdict, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, services({ calculationProperties: { c: { title: 'c', calculation, type: 'boolean' } } }), 'calculationProperties.c.calculation');
    expect(finding.verdict).toBe(verdict);
  });
});
