/**
 * Issue 39, items 3 and 7: a policy judged whole reads every entity its query finds, however many
 * the blueprint holds. 600 services of team Backend come first; the one service of team Frontend
 * is the 601st. The query `$team = "Frontend"` finds it before the migration and nothing after it
 * (the entity then holds `web-ui`), so a condition that asks whether the query found nothing
 * answers otherwise after the migration: the rule keeps its finding. The truth is computed with jq.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Backend', identifier: 'backend-core' },
  { name: 'Frontend', identifier: 'web-ui' },
];
const SERVICES = [...Array.from({ length: 600 }, (_, i) => ({ identifier: `svc-${i}`, team: ['Backend'] })), { identifier: 'svc-web', team: ['Frontend'] }];
const CONDITION = '.results.q.entities | length == 0';
const RULE = { property: '$team', operator: '=', value: 'Frontend' };

function snapshot(): OrgSnapshot {
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_many', name: 'Many services' },
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    teams: TEAMS,
    entities: { service: SERVICES },
    actions: [{ identifier: 'release', title: 'Release', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }],
    actionPermissions: { release: { execute: { roles: [], users: [], teams: [], policy: { queries: { q: { combinator: 'and', rules: [{ property: '$blueprint', operator: '=', value: 'service' }, RULE] } }, conditions: [CONDITION] } }, approve: { roles: [], users: [], teams: [] } } },
  } as unknown as OrgSnapshot;
}

/** The condition in a world, the query run in jq over every service as it holds its teams there. */
function answer(world: 'before' | 'after'): unknown {
  const entities = SERVICES.map((e) => ({ ...e, team: world === 'before' ? e.team : e.team.map((t) => TEAMS.find((team) => team.name === t)!.identifier) }));
  const found = jq.evaluate(entities, `[.[] | select(.team | index(["${RULE.value}"]) != null)]`);
  if (!found.ok) throw new Error(found.error);
  const run = jq.evaluate({ results: { q: { entities: found.values[0] } } }, CONDITION);
  if (!run.ok) throw new Error(run.error);
  return run.values;
}

describe('a policy judged whole over every entity its query finds', () => {
  it('the 601st service changes what the condition answers: the rule keeps its finding', () => {
    expect(answer('before')).toEqual([false]);
    expect(answer('after')).toEqual([true]);
    const report = analyze(buildCatalog(snapshot(), { jq }));
    const finding = report.findings.find((f) => f.location === 'permissions.execute.policy.queries.q.rules[1]');
    expect(finding?.verdict).toBe('breaks');
  });
});
