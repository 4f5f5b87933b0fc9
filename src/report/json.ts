import type { Report } from '../model/finding.js';

/** report.json exactly as contracts.md §2 shapes it; pretty, stable, clock-free. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
