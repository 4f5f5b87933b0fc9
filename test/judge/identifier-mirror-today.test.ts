/**
 * Issue 39, item 7: after the migration, judge what works today. A mirror of a `_team` relation's
 * `$identifier` holds identifiers, and so does `$team` once the org has migrated: an expression that
 * looks one up in the other is written for identifiers and works now, though before the migration
 * the same identifiers met titles. Before the migration it still breaks until the migration runs.
 */
import { describe, expect, it } from 'vitest';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, teamRelatedServices, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'calculationProperties.flag.calculation';

/** Services whose steward is a `_team` relation mirrored by `steward_key`; each is owned by one team and stewarded by the next. */
const stewarded = (calculation: string, migrated: boolean): OrgSnapshot =>
  teamRelatedServices({
    relation: { name: 'steward', title: 'Steward', many: false, relatesTo: 'next' },
    mirrors: { steward_key: ['Steward key', 'steward.$identifier'] },
    calculation: ['flag', 'Flag', calculation],
    migrated,
  });

/**
 * Whether the expression, given the mirror and `$team` in one spelling, answers the same with
 * titles as with identifiers, for each team as owner and steward at once and apart: written for
 * whatever the two hold alike.
 */
function sameInEitherSpelling(expression: string): boolean {
  const run = (team: string[], key: string) => JSON.stringify(jq.evaluate({ identifier: 'e', team, properties: { steward_key: key }, relations: {} }, expression));
  return TEAMS.every((owner) => TEAMS.every((steward) => run([owner.name], steward.name) === run([owner.identifier], steward.identifier)));
}

const ROWS = ['.properties.steward_key as $k | .team | index($k) != null'];

describe('an identifier mirror met with $team', () => {
  for (const expression of ROWS) {
    it(`${expression}: on a migrated org it works today`, () => {
      expect(sameInEitherSpelling(expression)).toBe(true);
      const { finding } = judged(jq, stewarded(expression, true), LOCATION);
      expect(finding.verdict).toBe('unaffected');
      expect(finding.reason).toContain('written for team identifiers');
    });
    it(`${expression}: before the migration identifiers meet titles, and it breaks until the migration runs`, () => {
      const { finding } = judged(jq, stewarded(expression, false), LOCATION);
      expect(finding.verdict).toBe('breaks');
    });
  }
});
