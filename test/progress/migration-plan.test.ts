import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { migrationPlanOf } from '../../src/progress/migration-plan.js';

const finding = (category: Finding['category'], identifier: string, extra: Partial<Finding>): Finding => ({
  id: `${category}-${identifier}`,
  kind: 'automatic',
  category,
  resource: { type: 'blueprint', identifier },
  location: 'x',
  evidence: '',
  reason: '',
  suggestion: '',
  ...extra,
});

describe('migrationPlanOf', () => {
  it('reads the ownership to set and the relations to remove from a previous report\'s automatic findings', () => {
    const plan = migrationPlanOf({
      organization: { id: 'o', name: 'O' },
      findings: [
        finding('ownership-direct', 'service', { rewrite: '{"ownership":{"type":"Direct"}}' }),
        finding('ownership-inherited', 'deployment', { rewrite: '{"ownership":{"type":"Inherited","path":"service"}}' }),
        finding('team-relation-removed', 'repository', { evidence: '{"relations":{"owning_team":{"target":"_team"}},"teamInheritance":{"path":"owning_team"}}' }),
      ],
    });
    expect([...plan.ownership]).toEqual([
      ['service', { type: 'Direct' }],
      ['deployment', { type: 'Inherited', path: 'service' }],
    ]);
    expect([...plan.removedRelations]).toEqual([['repository', 'owning_team']]);
  });

  it('leaves out what it cannot read, and everything that is not a blueprint\'s automatic change', () => {
    const plan = migrationPlanOf({
      organization: { id: 'o', name: 'O' },
      findings: [
        finding('ownership-direct', 'a', { rewrite: 'not json' }),
        finding('ownership-inherited', 'b', { rewrite: '{"ownership":{"type":"Inherited"}}' }),
        finding('team-relation-removed', 'c', { evidence: '["x"]' }),
        finding('calculation-property', 'd', { rewrite: '{"ownership":{"type":"Direct"}}' }),
        { ...finding('ownership-direct', 'e', { rewrite: '{"ownership":{"type":"Direct"}}' }), resource: { type: 'file', identifier: 'main.tf' } },
      ],
    });
    expect(plan.ownership.size).toBe(0);
    expect(plan.removedRelations.size).toBe(0);
  });
});
