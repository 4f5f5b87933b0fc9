import type { Report } from '../model/finding.js';
import { jsonControlsEscaped } from '../terminal-text.js';

/**
 * report.json exactly as docs/formats.md shapes it (`impact-report/1`); pretty, stable, clock-free.
 * Control characters JSON leaves raw (C1, line separators) and `##[` are written as \u escapes.
 */
export function renderJson(report: Report): string {
  return `${jsonControlsEscaped(JSON.stringify(report, null, 2))}\n`;
}
