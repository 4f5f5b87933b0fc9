/**
 * Issue 39, held-out miss: an org that names no team (no teams list, no teams map) and has not
 * migrated, with one entity whose `$team` holds two titles. A rule's literal tried as a team there
 * is a stand-in whose identifier no source gives: `breaks` only when jq shows the change with every
 * identifier the migration could assign, else the `identifier-unknown` review, with that reason.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { Verdict } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { expectedRuleClass, judged, org } from './two-worlds.js';

const jq = useJqEngine();
const HELD = ['Ops', 'Dev Tools'];
const SHAPED_LIKE_AN_IDENTIFIER = /^[A-Za-z0-9@_.+:/=-]+$/;

/** The title in an identifier's characters: each run of other characters as "_", "-" or nothing, in its case and lower case. */
const titleSpellings = (title: string) => ['_', '-', ''].flatMap((joint) => {
  const text = title.split(/[^A-Za-z0-9]+/).filter(Boolean).join(joint);
  return [text, text.toLowerCase()];
});

/** Identifiers the migration could give `title`: the title where it could be one, the title in an identifier's characters, and one no string meets. */
const possibleIdentifiers = (title: string) => [...(SHAPED_LIKE_AN_IDENTIFIER.test(title) ? [title] : []), ...titleSpellings(title), 'fresh_7919'];

/** The entity's teams after the migration, `title` given `identifier` and the other team one of its own. */
const after = (title: string, identifier: string) => HELD.map((held, i) => (held === title ? identifier : `other_${i}`));

function verdictOver(changedWith: boolean[]): Verdict {
  if (changedWith.every(Boolean)) return 'breaks';
  return changedWith.some(Boolean) ? 'review' : 'unaffected';
}

function noTeamsOrg(parts: JsonObject): OrgSnapshot {
  const snapshot = org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...parts }], entities: { service: [{ identifier: 's', title: 's', team: HELD }] } }, []);
  delete (snapshot as { teams?: unknown }).teams;
  return snapshot;
}

describe('a $team rule in an org that names no team, on an entity of two titles', () => {
  it.each([
    ['Ops', 'review'],
    ['Dev Tools', 'breaks'],
  ] as const)('$team != %j: the verdict jq gives over every identifier the migration could assign', (title, shows) => {
    const verdict = verdictOver(possibleIdentifiers(title).map((identifier) => expectedRuleClass.match(jq, '!=', HELD, [title]) !== expectedRuleClass.match(jq, '!=', after(title, identifier), [title])));
    expect(verdict, 'the row shows what it says').toBe(shows);
    const scorecards = [{ blueprint: 'service', identifier: 'sc', title: 'sc', rules: [{ identifier: 'r', title: 'r', level: 'Gold', query: { combinator: 'and', conditions: [{ property: '$team', operator: '!=', value: title }] } }] }];
    const { finding } = judged(jq, { ...noTeamsOrg({}), scorecards } as OrgSnapshot, 'rules[0].query.conditions[0]');
    expect(finding.verdict).toBe(verdict);
    if (verdict === 'review') expect(finding.reason).toContain(`identifier "${title}" for "${title}"`);
  });
});

describe('a calculation in an org that names no team, on an entity of two titles', () => {
  it.each([
    ['Ops', 'review'],
    ['Dev Tools', 'breaks'],
  ] as const)('.team | index(%j) | not: the verdict jq gives over every identifier the migration could assign', (title, shows) => {
    const calculation = `.team | index(${JSON.stringify(title)}) | not`;
    const run = (team: string[]) => JSON.stringify(jq.evaluate({ identifier: 's', title: 's', team, properties: {}, relations: {} }, calculation));
    const verdict = verdictOver(possibleIdentifiers(title).map((identifier) => run(HELD) !== run(after(title, identifier))));
    expect(verdict, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, noTeamsOrg({ calculationProperties: { c: { title: 'c', calculation, type: 'boolean' } } }), 'calculationProperties.c.calculation');
    expect(finding.verdict).toBe(verdict);
  });
});
