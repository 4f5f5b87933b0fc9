import { describe, expect, it } from 'vitest';
import { demoSnapshotJson, reportOf } from './helpers.js';

/** Baselines only work if a finding keeps its id while the rest of the org changes around it. */
describe('finding ids are stable across runs', () => {
  it('gives the same ids for the same org, run twice', () => {
    expect(reportOf(demoSnapshotJson()).findings.map((f) => f.id)).toEqual(reportOf(demoSnapshotJson()).findings.map((f) => f.id));
  });

  it('keeps every id when unrelated resources are added, reordered and edited', () => {
    const before = reportOf(demoSnapshotJson());

    const changed = demoSnapshotJson();
    // Unrelated additions: a blueprint and a page with no team references at all.
    changed.blueprints.push({
      identifier: 'cost_center',
      title: 'Cost center',
      schema: { properties: { budget: { type: 'number', title: 'Budget' } } },
      relations: {},
    });
    const pages = changed.pages as Record<string, unknown>[];
    pages.push({ identifier: 'costs', title: 'Costs', type: 'blueprint-entities', blueprint: 'cost_center', widgets: [] });
    // Reordering arrays the API returns in no promised order.
    changed.blueprints.reverse();
    pages.reverse();
    (changed.actions as unknown[]).reverse();
    (changed.teams as unknown[]).reverse();
    // Editing text that is no part of any finding's identity.
    const service = changed.blueprints.find((b) => b.identifier === 'service');
    if (!service) throw new Error('the demo org has a service blueprint');
    service.title = 'Service (renamed)';
    service.description = 'A new description without any team words.';

    const after = reportOf(changed);
    const afterIds = new Set(after.findings.map((f) => f.id));
    for (const finding of before.findings) expect(afterIds, `${finding.category} ${finding.resource.identifier} ${finding.location}`).toContain(finding.id);
    expect(after.findings).toHaveLength(before.findings.length);
  });

  it('changes the id when the finding itself moves to another location', () => {
    const before = reportOf(demoSnapshotJson());
    const changed = demoSnapshotJson();
    const service = changed.blueprints.find((b) => b.identifier === 'service') as { calculationProperties: Record<string, unknown> };
    service.calculationProperties.owners_renamed = service.calculationProperties.owner_list;
    delete service.calculationProperties.owner_list;
    const after = reportOf(changed);
    const moved = before.findings.find((f) => f.location === 'calculationProperties.owner_list.calculation');
    const renamed = after.findings.find((f) => f.location === 'calculationProperties.owners_renamed.calculation');
    expect(moved).toBeDefined();
    expect(renamed).toBeDefined();
    expect(renamed?.id).not.toBe(moved?.id);
    expect(after.findings.map((f) => f.id)).not.toContain(moved?.id);
  });
});
