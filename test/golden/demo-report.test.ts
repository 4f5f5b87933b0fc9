import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { renderJson } from '../../src/report/json.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

const GOLDEN = new URL('../../fixtures/golden/demo-report.json', import.meta.url);

/**
 * The demo org's report, pinned. A change here is a change in what every new user sees first:
 * regenerate on purpose with `npm run update:golden` and read the diff before committing it.
 */
describe('demo org golden report', () => {
  it('matches fixtures/golden/demo-report.json', async () => {
    const snapshot = await readSnapshotFile('fixtures/demo-org.json');
    const actual = renderJson(analyze(buildCatalog(snapshot, { jq: await loadJqEngine() })));
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, actual);
    expect(actual).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('exercises every in-service category at least once', async () => {
    const report = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { summary: { byCategory: Record<string, number> } };
    const categories = Object.keys(report.summary.byCategory).sort();
    expect(categories).toEqual(
      [
        'action-dynamic-permission', 'action-mapping', 'action-user-input', 'calculation-property',
        'integration-mapping', 'ownership-direct', 'ownership-inherited', 'page-widget',
        'relation-ownership', 'team-permission-identifiers', 'team-relation-removed', 'webhook-mapping',
        'scorecard-rule', 'mirror-property',
      ].sort(),
    );
  });

  it('never reports prose: no finding sits in a title, description or icon', async () => {
    const report = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { findings: { location: string }[] };
    expect(report.findings.length).toBeGreaterThan(0);
    for (const finding of report.findings) expect(finding.location).not.toMatch(/(^|\.)(title|description|icon)$/);
  });
});
