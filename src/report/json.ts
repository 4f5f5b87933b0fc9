import type { Report } from '../model/finding.js';
import { jsonControlsEscaped } from '../terminal-text.js';
import { rewrittenRuns } from '../output/rewritten-runs.js';
import { jsonPieces } from './json-pieces.js';

/**
 * report.json exactly as docs/formats.md shapes it (`impact-report/1`); pretty, stable, clock-free.
 * Control characters JSON leaves raw (C1, line separators) and `##[` are written as \u escapes.
 */
export function renderJson(report: Report): string {
  return [...jsonReportPieces(report)].join('');
}

/** report.json made piece by piece, escaped a run at a time: written as it is made, never one string. */
export function* jsonReportPieces(report: Report): Generator<string> {
  yield* rewrittenRuns(jsonPieces(report, 2), jsonControlsEscaped);
  yield '\n';
}
