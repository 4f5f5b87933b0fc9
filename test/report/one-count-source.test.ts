import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReportView } from '../../src/report/view-model.js';
import { repositoryFindings } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

/** Issue 42, Why 6: "54 manual items" stood above "Manual work (29)"; summary.md said "no verdict" where the page says "Needs action". */
describe('the page and summary.md count from one source', () => {
  it('with repository files scanned, every total says where its items are, and the parts add up to it', async () => {
    const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { jq });
    const report = analyze(catalog, await repositoryFindings(['fixtures/repo'], catalog));
    const view = buildReportView(report, { generatedAt: '2026-01-02T03:04:05.000Z', source: 'test' });
    const section = (id: string) => view.sections.find((s) => s.id === id)!;
    const manualFiles = report.findings.filter((f) => f.kind === 'manual' && f.resource.type === 'file').length;
    const manualOrg = report.summary.manual - manualFiles;
    expect(manualFiles).toBeGreaterThan(0);
    // The manual part lists the org's items; its note names the rest and the total the card shows.
    expect(section('manual').count).toBe(manualOrg);
    expect(section('manual').intro).toContain(`Of the ${report.summary.manual} manual items in all, ${manualFiles} are in your repositories' files`);
    const card = view.cards.find((c) => c.tone === 'manual')!;
    expect([card.value, card.label]).toEqual([report.summary.manual, `manual items (${manualOrg} in the org, ${manualFiles} in your repositories)`]);
    expect(section('manual').count + manualFiles).toBe(card.value);

    const md = renderMarkdown(report);
    expect(md).toContain(`Manual items: ${manualOrg} in the org, ${manualFiles} in your repositories;`);
    expect(md).toMatch(new RegExp(`^\\| manual \\(a person must act\\) \\| ${report.summary.manual} \\|`, 'm'));
  });

  it('manual work with no verdict is "needs action" on the page, in summary.md and in the CI log words', async () => {
    const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { jq });
    const report = analyze(catalog);
    const none = report.findings.filter((f) => f.kind === 'manual' && f.verdict === undefined).length;
    expect(none).toBeGreaterThan(0);
    const md = renderMarkdown(report);
    expect(md).not.toContain('no verdict');
    expect(md).toMatch(new RegExp(`^\\| needs action \\| ${none} \\|$`, 'm'));
    const html = renderHtml(report, { generatedAt: '2026-01-02T03:04:05.000Z', source: 'test' });
    expect(html).toContain('Needs action');
    expect(html).not.toContain('No verdict'); // a label; the page's script mentions the words in a comment
  });
});
