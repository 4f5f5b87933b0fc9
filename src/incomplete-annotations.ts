import { ANNOTATIONS_SHOWN, workflowData, workflowProperty } from './cli-text.js';
import type { IncompleteItem } from './model/finding.js';
import { splitFileLocation } from './file-location.js';
import { terminalSafe } from './terminal-text.js';

/**
 * On GitHub Actions, what could not be read is annotated as a failure is, and before any failing
 * finding: it is why the gate gave no verdict (exit 3). A repository file gets `file=` (and its line
 * when the reading stopped at one), so it shows on the pull request's diff. Accepted ones are not
 * annotated: they no longer hold the gate. Within GitHub's cap; a notice counts the rest.
 */
export function incompleteAnnotations(incomplete: readonly IncompleteItem[], reportPath: string): string[] {
  const open = incomplete.filter((item) => item.accepted === undefined);
  const lines = open.slice(0, ANNOTATIONS_SHOWN).map(annotation);
  const rest = open.length - ANNOTATIONS_SHOWN;
  if (rest > 0) {
    lines.push(
      `::notice title=teams-migration-audit::${rest} more ${rest === 1 ? 'item that could not be read is' : 'items that could not be read are'} not annotated (GitHub shows ${ANNOTATIONS_SHOWN} error annotations per step): ${workflowData(reportPath)} lists them all`,
    );
  }
  return lines;
}

function annotation(item: IncompleteItem): string {
  const properties = [`title=${workflowProperty('teams-migration-audit: not read, no gate verdict')}`];
  // Unreadable repository files carry an id (gate-run.ts); their resource is `path` or `path:line`.
  if (item.id !== undefined) {
    const { path, line } = splitFileLocation(item.resource);
    properties.unshift(`file=${workflowProperty(path)}`, ...(line > 0 ? [`line=${line}`] : []));
  }
  return `::error ${properties.join(',')}::${workflowData(terminalSafe(`not read: ${item.resource}: ${item.reason}`))}`;
}
