import type { FixesSummary, Report } from '../model/finding.js';

/** Files that fix one finding, most specific first: a corrected resource or the patch before the data or the prediction. */
const LINK_ORDER: readonly FixesSummary['files'][number]['kind'][] = ['resource', 'repo-patch', 'data-migration', 'bulk-upsert'];

/**
 * Finding id → a link, relative to the report, to the file of the fix kit that fixes it ("Download
 * fix"). The kit sits beside the report, so the link works from file:// and under the page's CSP.
 */
export function fixLinks(report: Report): Map<string, string> {
  const links = new Map<string, string>();
  const fixes = report.fixes;
  if (!fixes || fixes.fromReport === undefined) return links;
  const base = fixes.fromReport === '' || fixes.fromReport === '.' ? '' : `${fixes.fromReport.split('/').map(encodeURIComponent).join('/')}/`;
  for (const kind of LINK_ORDER) {
    for (const file of fixes.files) {
      if (file.kind !== kind) continue;
      const href = base + file.path.split('/').map(encodeURIComponent).join('/');
      for (const id of file.findings) if (!links.has(id)) links.set(id, href);
    }
  }
  return links;
}
