/**
 * Contexts are the org's own: two orgs analysed by one engine in one process must not share the
 * "every team at once" context (a team of the first org, unknown to the second, turned the
 * second org's pass-through into a change).
 */
import { expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

const calculation = (teams: typeof TEAMS) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { owners: { title: 'Owners', calculation: '.team | join(",")', type: 'string' } } }] }, teams);

it('a pass-through stays substituted in the second org, whatever the first org held', () => {
  const first = judged(jq, calculation([...TEAMS, { name: 'Zeta Ops', identifier: 'zeta' }]), 'calculationProperties.owners.calculation').finding;
  const second = judged(jq, calculation(TEAMS), 'calculationProperties.owners.calculation').finding;
  expect(first.verdict).toBe('review');
  expect(second.verdict).toBe('review');
  expect(second.reason).not.toContain('Zeta');
});
