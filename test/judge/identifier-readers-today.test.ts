/**
 * Issue 39, item 7: after the migration, judge what works today, for every reader of data that holds
 * `_team` identifiers (a relation to `_team` the migration keeps, read directly or through a mirror of
 * its `$identifier`). A title such data is compared with matches nothing now, whatever it matched
 * before: `no-team-holds`, with the team it could have meant. Met with `$team`, such data is written
 * for identifiers: it works today, though before the migration the same identifiers met titles.
 */
import { describe, expect, it } from 'vitest';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, teamRelatedServices, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'calculationProperties.check.calculation';

/** Services each owned by one team and backed up by the next through a `_team` relation, mirrored by `backup_ids`. */
const backedUp = (calculation: string, migrated: boolean, teams?: readonly { name: string; identifier?: string }[]): OrgSnapshot =>
  teamRelatedServices({
    relation: { name: 'backup', title: 'Backup', many: true, relatesTo: 'next' },
    mirrors: { backup_ids: ['Backup ids', 'backup.$identifier'] },
    calculation: ['check', 'Check', calculation],
    migrated,
    teams,
  });

/** What the expression gives on each service of the migrated org, run here by jq: the relation and its mirror hold identifiers. */
const onEachService = (expression: string) =>
  TEAMS.map((team, i) => {
    const backup = [TEAMS[(i + 1) % TEAMS.length]!.identifier];
    return JSON.stringify(jq.evaluate({ identifier: `svc-${i}`, team: [team.identifier], properties: { backup_ids: backup }, relations: { backup } }, expression));
  });

describe('identifier-valued data compared with a title, on a migrated org', () => {
  const TITLE_READS = ['.properties.backup_ids | any(. == "Data Science")', '.relations.backup | index(["Platform (EU)"]) != null'];
  for (const expression of TITLE_READS) {
    it(`${expression}: matches no service today, so it breaks, naming the team meant`, () => {
      expect(new Set(onEachService(expression)), 'no service matches today').toEqual(new Set(['{"ok":true,"values":[false]}']));
      const { finding } = judged(jq, backedUp(expression, true), LOCATION);
      expect(finding.verdict).toBe('breaks');
      expect(finding.reason).toContain('no team of the org');
      expect(finding.reason).toMatch(/perhaps "(data_science|platform)"/);
    });
  }

  it('a title of a team whose identifier nobody names may be that identifier: not a break', () => {
    const expression = '.properties.backup_ids | any(. == "Mobile")';
    const { finding } = judged(jq, backedUp(expression, true, [...TEAMS, { name: 'Mobile' }]), LOCATION);
    expect(finding.verdict).not.toBe('breaks');
  });

  const IDENTIFIER_READS = ['.properties.backup_ids | any(. == "data_science")', '.relations.backup | index(["platform"]) != null'];
  for (const expression of IDENTIFIER_READS) {
    it(`${expression}: an identifier the data holds: no finding to act on`, () => {
      expect(onEachService(expression)).toContain('{"ok":true,"values":[true]}');
      const { finding } = judged(jq, backedUp(expression, true), LOCATION);
      expect(finding.verdict).toBe('unaffected');
    });
  }
});

describe('a relation to _team met with $team', () => {
  const expression = '.relations.backup as $b | .team | any(. as $t | $b | index([$t]) != null)';
  it('on a migrated org it is written for identifiers and works today', () => {
    const { finding } = judged(jq, backedUp(expression, true), LOCATION);
    expect(finding.verdict).toBe('unaffected');
    expect(finding.reason).toContain('written for team identifiers');
  });
  it('before the migration the identifiers meet titles, and it breaks until the migration runs', () => {
    const { finding } = judged(jq, backedUp(expression, false), LOCATION);
    expect(finding.verdict).toBe('breaks');
  });
});
