import { readFileSync } from 'node:fs';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { FindingDraft, Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { validateSnapshot } from '../../src/sources/validate-snapshot.js';

export const DEMO_PATH = new URL('../../fixtures/demo-org.json', import.meta.url);

/** A fresh, mutable copy of the demo org for each test. */
export function demoSnapshotJson(): Record<string, unknown> & { blueprints: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(DEMO_PATH, 'utf8')) as Record<string, unknown> & { blueprints: Record<string, unknown>[] };
}

export function reportOf(document: unknown, extraFindings: FindingDraft[] = []): Report {
  const snapshot: OrgSnapshot = validateSnapshot(document, 'test snapshot');
  return analyze(buildCatalog(snapshot), { extraFindings });
}

/** A finding from a repository file, as the --repo scanner reports them: resource type file, location path:line. */
export const FILE_FINDING: FindingDraft = {
  category: 'external-ownership',
  resource: { type: 'file', identifier: 'infra/port blueprints.tf', title: 'infra/port blueprints.tf' },
  location: 'infra/port blueprints.tf:12',
  evidence: 'team_inheritance = { path = "service" }',
  reason: 'Terraform keeps its own copy of teamInheritance; the next apply reverts the migration.',
  suggestion: 'Write ownership = { type = "Inherited", path = "service" } instead.',
};

export function demoReport(extraFindings: FindingDraft[] = []): Report {
  return reportOf(demoSnapshotJson(), extraFindings);
}
