import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze, fingerprint } from '../../src/analyze.js';
import type { Finding } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { catalogOf } from '../support/rule-tester.js';

const demo = (): OrgSnapshot => JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as OrgSnapshot;
const ids = (snapshot: OrgSnapshot) => new Map(analyze(catalogOf(snapshot)).findings.map((f: Finding) => [`${f.category} ${f.resource.type}:${f.resource.identifier} ${f.location}`, f.id]));

describe('finding fingerprints', () => {
  it('are the same for the same input, run after run', () => {
    const first = ids(demo());
    expect(first.size).toBeGreaterThan(10);
    expect(ids(demo())).toEqual(first);
  });

  it('are unique per category, resource and location', () => {
    const first = ids(demo());
    expect(new Set(first.values()).size).toBe(first.size);
  });

  it('do not change when an unrelated resource changes or is added', () => {
    const before = ids(demo());
    const changed = demo();
    changed.blueprints.unshift({ identifier: 'aaa_new', title: 'New', relations: {} });
    changed.organization.name = 'Renamed org';
    (changed.pages ?? []).push({ identifier: 'new_page', title: 'New page', widgets: [] });
    const firstAction = changed.actions?.[0];
    if (firstAction) firstAction.title = 'Renamed action';
    const after = ids(changed);
    expect(after).toEqual(before);
  });

  it('depend on category, resource type, identifier and location, not on evidence or wording', () => {
    const base = { category: 'calculation-property' as const, resource: { type: 'blueprint' as const, identifier: 'service' }, location: 'calculationProperties.a.calculation' };
    const id = fingerprint(base);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint({ ...base, resource: { ...base.resource, title: 'Other title' } })).toBe(id);
    expect(fingerprint({ ...base, location: 'calculationProperties.b.calculation' })).not.toBe(id);
    expect(fingerprint({ ...base, resource: { type: 'page', identifier: 'service' } })).not.toBe(id);
    expect(fingerprint({ ...base, category: 'action-mapping' })).not.toBe(id);
  });
});
