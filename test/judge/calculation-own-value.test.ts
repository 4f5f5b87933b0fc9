/**
 * Issue 39: the contexts a calculation is run on hold what the org's entity holds. A calculation that
 * reads its entity whole (`[.. | numbers] | add`) sees the blueprint's other calculations derived
 * from team values, each filled as it gives on that entity; never its own value, which no entity
 * hands its calculation. Filled with it, every number it adds up was counted twice, and the reason
 * showed values no entity gives. Expected values are computed here by running jq on an entity of
 * the team the reason names, its other calculations filled first.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Payments Risk', identifier: 'pay-risk' },
  { name: 'Core Banking', identifier: 'core-banking' },
];
const LENGTHS = '.team | map(length) | add';
const TOTAL = '[.. | numbers] | add';

const snapshot = org(
  {
    blueprints: [
      {
        identifier: 'service',
        title: 'Service',
        schema: { properties: {} },
        relations: {},
        calculationProperties: { lengths: { title: 'Lengths', type: 'number', calculation: LENGTHS }, total: { title: 'Total', type: 'number', calculation: TOTAL } },
      },
    ],
    // No entity yet: only the made-up contexts tell (the org's own entities decide where they hold teams: whole-walk-org-entities).
    entities: { service: [] },
  },
  TEAMS,
);

/** What the total gives on an entity of `team` in one form, its other calculation filled first. */
function total(team: string): string {
  const entity = { identifier: 'e', title: 'e', team: [team], properties: {}, relations: {} };
  const lengths = jq.evaluate(entity, LENGTHS);
  if (!lengths.ok) throw new Error(lengths.error);
  const run = jq.evaluate({ ...entity, properties: { lengths: lengths.values[0]! } }, TOTAL);
  if (!run.ok) throw new Error(run.error);
  return JSON.stringify(run.values[0]);
}

describe('a calculation reading its entity whole, beside a calculation derived from team values', () => {
  it('is run on contexts holding the other calculation, not its own value', () => {
    const { finding } = judged(jq, snapshot, 'calculationProperties.total.calculation');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain(`for a team "Payments Risk" it gives ${total('Payments Risk')} with team titles but ${total('pay-risk')} with team identifiers`);
  });
});
