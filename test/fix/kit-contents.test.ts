import { describe, expect, it } from 'vitest';
import { kitContents } from '../../src/fix/kit-contents.js';
import type { FixesSummary } from '../../src/model/finding.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/model/finding.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

type Files = FixesSummary['files'];
const file = (path: string, kind: Files[number]['kind']): Files[number] => ({ path, kind, findings: [] });

describe('the fix kit as the summary names it', () => {
  it('names only what was written', () => {
    expect(kitContents([file('predicted-org.json', 'predicted-org'), file('README.md', 'readme')])).toBe('`predicted-org.json`');
    expect(
      kitContents([
        file('org/action/a.json', 'resource'),
        file('org/page/p.json', 'resource'),
        file('repo-infra.patch', 'repo-patch'),
        file('repo-web.patch', 'repo-patch'),
        file('data-migration/service.json', 'data-migration'),
        file('data-migration/bulk/service-001.json', 'bulk-upsert'),
        file('predicted-org.json', 'predicted-org'),
      ]),
    ).toBe('2 corrected resources, `repo-infra.patch`, `repo-web.patch`, 1 data-migration mapping, 1 bulk payload, `predicted-org.json`');
  });

  it('summary.md does not name repo.patch or payloads the kit does not hold', async () => {
    const report: Report = { ...analyze(buildCatalog(await readSnapshotFile('fixtures/demo-org.json'))), fixes: { dir: 'fixes', files: [file('org/action/a.json', 'resource'), file('predicted-org.json', 'predicted-org'), file('README.md', 'readme')] } };
    const line = renderMarkdown(report).split('\n').find((l) => l.startsWith('**Fix kit:**'))!;
    expect(line).toContain('(1 corrected resource, `predicted-org.json`)');
    // Issue 42: the kit's folder is a path from the report folder, and the summary says so.
    expect(line).toMatch(/^\*\*Fix kit:\*\* `fixes\/` \(a path from the report folder, `--out`\) holds /);
    expect(line).not.toMatch(/repo\.patch|data-migration|payload/);
  });

  it("the kit's README points at no data-migration folder it did not write", async () => {
    const { buildFixKit } = await import('../../src/fix/build-fix-kit.js');
    const catalog = buildCatalog(await readSnapshotFile('fixtures/xss-org.json'));
    const kit = buildFixKit({ catalog, report: analyze(catalog) });
    expect(kit.files.some((f) => f.path.startsWith('data-migration/'))).toBe(false);
    expect(kit.files.find((f) => f.path === 'README.md')!.content).not.toContain('data-migration/README.md');
  });
});
