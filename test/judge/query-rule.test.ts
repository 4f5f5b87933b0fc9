/**
 * `$team` rules of a policy query, matched as the service matches them: the class is computed
 * here by matching the rule in jq on an entity of every team set, before and after.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { judgedRuleRow, RULE_ROWS } from './rule-rows.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();

const snapshot = (rule: JsonObject) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: {
      deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: { mine: { combinator: 'and', rules: [rule] } }, conditions: ['.results.mine.entities | length > 0'] } }, approve: { roles: [], users: [], teams: [] } },
    },
  });

const LOCATION = 'permissions.execute.policy.queries.mine.rules[0]';

describe('query rule: (rule, teams) → (class, verdict)', () => {
  for (const row of RULE_ROWS) {
    it(row.name, () => {
      judgedRuleRow(jq, row, snapshot, LOCATION);
    });
  }

  it('a rule fed by the user\'s own teams through the service\'s template is no finding: it follows the teams', () => {
    const report = judgedOrNone(snapshot({ property: '$team', operator: 'containsAny', value: '{{ .user.teams }}' }));
    expect(report.filter((f) => f.verdict !== 'unaffected')).toEqual([]);
  });

  it('a title rule offers a proven rewrite to identifiers', () => {
    const { finding } = judged(jq, snapshot({ property: '$team', operator: 'in', value: ['QA', 'Alpha'] }), LOCATION);
    expect(finding.rewrite).toBe(JSON.stringify({ property: '$team', operator: 'in', value: ['qa', 'z_alpha'] }));
    expect(finding.rewriteProof).toBe('proven');
  });
});

function judgedOrNone(snapshot: OrgSnapshot) {
  const report = analyze(buildCatalog(snapshot, { jq }));
  return [...report.findings, ...(report.verified ?? [])].filter((f) => f.location === LOCATION);
}
