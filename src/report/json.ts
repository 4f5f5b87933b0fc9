import type { Report } from '../model/finding.js';

/** report.json exactly as docs/formats.md shapes it (`impact-report/1`); pretty, stable, clock-free. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
