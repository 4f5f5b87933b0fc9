/**
 * Issue 39: an expression that names no team and reads its entity whole (`[.. | numbers] | add`)
 * is found by running, on made-up entities whose calculations derived from team values are filled
 * in each world: a count of the entity's characters moves with the team's spelling there. Team
 * values are strings; on the org's own entities (their numbers as they hold them, their teams read
 * back to titles, then as identifiers) it gives the same before the migration and after it, so the
 * org's entities decide. One that meets the team values themselves still changes on them.
 * Expected answers are computed here with jq over the org's entities in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { EntityRecord } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org } from './two-worlds.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Payments Risk', identifier: 'pay-risk' },
  { name: 'Core Banking', identifier: 'core_banking_team' },
];
const SIZE = 'tojson | length';
const ENTITIES: EntityRecord[] = TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name], properties: { cost: 290 + i, size: 120 + i }, relations: {} }));

const snapshot = (calculation: string) =>
  org(
    {
      blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: { cost: { type: 'number' } } }, relations: {}, calculationProperties: { size: { title: 'Size', type: 'number', calculation: SIZE }, flag: { title: 'Flag', type: 'number', calculation } } }],
      entities: { service: ENTITIES },
    },
    TEAMS,
  );

/** Whether jq gives every entity of the org the same before (titles) and after (identifiers). */
function sameOnEntities(calculation: string): boolean {
  const idOf = new Map(TEAMS.map((t) => [t.name, t.identifier]));
  return ENTITIES.every((e) => JSON.stringify(jq.evaluate(e, calculation)) === JSON.stringify(jq.evaluate({ ...e, team: (e.team as string[]).map((t) => idOf.get(t)!) }, calculation)));
}

describe("a calculation reading its entity whole and naming no team, judged on the org's entities", () => {
  it.each([
    ['[.. | numbers] | add', 'unaffected'],
    ['[.. | strings] | join(",")', 'not unaffected'],
  ])('%s', (calculation, expected) => {
    expect(sameOnEntities(calculation)).toBe(expected === 'unaffected');
    // Unaffected: in `verified`, or, read whole and shown to read no team value, not named at all.
    const report = analyze(buildCatalog(snapshot(calculation), { jq }));
    const verdict = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === 'calculationProperties.flag.calculation')?.verdict ?? 'unaffected';
    if (expected === 'unaffected') expect(verdict).toBe('unaffected');
    else expect(verdict).not.toBe('unaffected');
  });
});
