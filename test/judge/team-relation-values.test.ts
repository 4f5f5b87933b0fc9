/**
 * Issue 39, builds 4 and 7: a relation to `_team` the migration keeps holds `_team` identifiers in
 * both worlds, and an expression that reads it reads team values: it is judged on the org's team
 * values, not "review: reads values no context can know". A DAY-2 input default that passes it on
 * gives the same before and after; a gate that compares it with the user's teams (titles before,
 * identifiers after) changes.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();

const snapshot = (attribute: 'visible' | 'default', expression: string, target = '_team') =>
  org({
    blueprints: [
      { identifier: 'service', title: 'Service', schema: { properties: {} }, relations: { owning_team: { title: 'Owning team', target, many: true, required: false } } },
      { identifier: 'squad', title: 'Squad', schema: { properties: {} }, relations: {} },
    ],
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { reason: { type: 'string', [attribute]: { jqQuery: expression } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

const at = (attribute: string) => `trigger.userInputs.properties.reason.${attribute}.jqQuery`;
const GATE = '(.entity.relations.owning_team // []) as $owners | .user.team | any(. as $t | $owners | index($t) != null)';

describe('a relation to _team read in a DAY-2 input', () => {
  it('a default that passes it on gives identifiers in both worlds: unaffected', () => {
    const { finding } = judged(jq, snapshot('default', '.entity.relations.owning_team[0]'), at('default'));
    expect(finding.verdict).toBe('unaffected');
    expect(finding.reason).not.toContain('no context');
    expect(finding.reason).toContain('.entity.relations.owning_team, a relation to _team, which holds team identifiers before the migration and after it');
  });

  it("a gate comparing it with the user's teams breaks: titles never meet identifiers before the migration", () => {
    const { finding } = judged(jq, snapshot('visible', GATE), at('visible'));
    expect(finding.verdict).toBe('breaks');
  });

  it('the same relation to another blueprint holds no team values', () => {
    const { report } = judged(jq, snapshot('visible', `${GATE} or true`, 'squad'), at('visible'));
    expect([...report.findings, ...(report.verified ?? [])].find((f) => f.location === at('visible'))?.reason ?? '').not.toMatch(/identifiers? (before|after)/);
  });
});
