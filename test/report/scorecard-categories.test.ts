import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';
import { buildReportView } from '../../src/report/view-model.js';

/** The categories added last (scorecard-rule, mirror-property; docs/categories.md) reach every renderer, from the demo org's golden report. */
const golden = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;
const meta = { generatedAt: '2026-01-02T03:04:05.000Z', source: 'snapshot fixtures/demo-org.json' };
const scorecardFinding = golden.findings.find((f) => f.category === 'scorecard-rule' && f.resource.identifier === 'service/ownership')!;

describe('scorecard-rule and mirror-property in the reports', () => {
  it('the demo report has them, manual, on scorecard and blueprint resources', () => {
    expect(scorecardFinding).toMatchObject({ kind: 'manual', resource: { type: 'scorecard', title: 'Ownership' } });
    expect(golden.findings.find((f) => f.category === 'mirror-property')).toMatchObject({ kind: 'manual', resource: { type: 'blueprint', identifier: 'incident' } });
  });

  it('HTML: grouped in the manual part after the first categories, with their titles, and a scorecard type filter', () => {
    const view = buildReportView(golden, meta);
    const manual = view.client.sections.find((s) => s.id === 'manual')!;
    // Work first: grouped by verdict tier, then by category in category order (the added ones after the first) within a tier.
    const keys = manual.groups.map((g) => g.key);
    expect(keys).toContain('category:scorecard-rule:breaks');
    expect(keys).toContain('category:mirror-property:review');
    expect(keys.filter((k) => k.endsWith(':review')).at(-1)).toBe('category:mirror-property:review');
    // A relation's data to move is no judgement call: its own tier, after what breaks and before what needs review.
    expect(keys.indexOf('category:relation-ownership:action')).toBeGreaterThan(keys.lastIndexOf('category:scorecard-rule:breaks'));
    expect(keys.indexOf('category:relation-ownership:action')).toBeLessThan(keys.findIndex((k) => k.endsWith(':review')));
    expect(view.filters.types.map((t) => t.value)).toContain('scorecard');
    const html = renderHtml(golden, meta);
    expect(html).toContain('Scorecard compares teams');
    expect(html).toContain('Mirror property carries teams');
  });

  it('SARIF: rule metadata for both, and the scorecard result points at its rule', () => {
    const log = JSON.parse(renderSarif(golden, { toolVersion: '0.0.0-test', orgArtifactUri: 'org.json' })) as {
      runs: [{ tool: { driver: { rules: { id: string; help: { text: string } }[] } }; results: { ruleId: string; ruleIndex: number; partialFingerprints: Record<string, string> }[] }];
    };
    const rules = log.runs[0].tool.driver.rules;
    for (const id of ['tma/scorecard-rule', 'tma/mirror-property']) expect(rules.find((r) => r.id === id)?.help.text, id).toContain('What to do:');
    const result = log.runs[0].results.find((r) => Object.values(r.partialFingerprints).includes(scorecardFinding.id))!;
    expect(result.ruleId).toBe('tma/scorecard-rule');
    expect(rules[result.ruleIndex]?.id).toBe('tma/scorecard-rule');
  });

  it('Markdown: a row each in the category table, with kind and counts', () => {
    const markdown = renderMarkdown(golden);
    expect(markdown).toContain('| Scorecard compares teams (scorecard-rule) | manual | 2 | 2 |');
    expect(markdown).toContain('| Mirror property carries teams (mirror-property) | manual | 1 | 1 |');
  });
});
