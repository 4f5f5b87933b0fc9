import { InputError } from '../errors.js';
import type { FixedFinding, Progress, Report } from '../model/finding.js';
import type { PreviousReport, PreviousReportFile } from './read-previous-report.js';

/**
 * docs/formats.md, the report `progress`, a pure function of the two reports (issue 13's property test and
 * issue 14's "still locked out" call it too):
 * - fixed: findings of the previous report that are now absent or in `verified`;
 * - open: findings of the previous report still in `findings`;
 * - new: findings of this report the previous one did not have.
 * Ids are stable fingerprints of category, resource and location, so matching by id is exact.
 * A report of another organization says nothing about this one: refused (InputError, exit 2).
 */
export function computeProgress(
  previous: PreviousReport,
  current: Pick<Report, 'organization' | 'findings' | 'verified'> & Partial<Pick<Report, 'incomplete'>>,
  date?: string,
  scope: ProgressScope = {},
): Progress {
  if (previous.organization.id !== current.organization.id) {
    // Quoted as JSON: names come from files and the org, and must not write control characters to a terminal.
    const name = (org: { id: string; name: string }) => `${JSON.stringify(org.id)} (${JSON.stringify(org.name)})`;
    throw new InputError(`--since: the previous report is of organization ${name(previous.organization)}, not ${name(current.organization)}; give a report of the same organization`);
  }
  // A file finding of a repository this run did not scan was not looked for: neither fixed nor open.
  const compared = previous.findings.filter((finding) => isCompared(finding, scope));
  const notCompared = previous.findings.length - compared.length;
  const open = new Set(current.findings.map((finding) => finding.id));
  const verified = new Map((current.verified ?? []).map((finding) => [finding.id, finding]));
  const before = new Set(previous.findings.map((finding) => finding.id));
  // Issue 21: breaking then and verified now with the very same text, nobody fixed it: the org's
  // values changed under it. It is neither fixed nor open.
  const changedUnder = (finding: PreviousReport['findings'][number]) => finding.verdict === 'breaks' && verified.get(finding.id)?.evidence === finding.evidence;
  const fixed: FixedFinding[] = compared
    .filter((finding) => !open.has(finding.id) && !changedUnder(finding))
    .map((finding) => ({
      id: finding.id,
      category: finding.category,
      resource: finding.resource,
      location: finding.location,
      now: verified.has(finding.id) ? 'verified' : 'absent',
    }));
  const since: Progress['since'] = { findings: previous.findings.length, organization: { id: previous.organization.id, name: previous.organization.name } };
  if (date !== undefined) since.date = date;
  const progress: Progress = {
    since,
    fixed,
    open: compared.filter((finding) => open.has(finding.id)).length,
    new: current.findings.filter((finding) => !before.has(finding.id)).length,
  };
  if (notCompared > 0) progress.notCompared = notCompared;
  if ((current.incomplete ?? []).length > 0) progress.provisional = true;
  return progress;
}

/** What this run looked at: the repositories it scanned, as their paths show in findings (`displayRoot`). */
interface ProgressScope {
  repoRoots?: readonly string[];
}

function isCompared(finding: Pick<PreviousReport['findings'][number], 'resource'>, scope: ProgressScope): boolean {
  if (finding.resource.type !== 'file') return true;
  const path = finding.resource.identifier;
  return (scope.repoRoots ?? []).some((root) => root === '' || path === root || path.startsWith(`${root}/`));
}

/** The report with `progress` set against `previous`, when `--since` gave one. */
export function withProgress<T extends Report>(report: T, previous: PreviousReportFile | undefined, scope: ProgressScope = {}): T {
  return previous === undefined ? report : { ...report, progress: computeProgress(previous.report, report, previous.date, scope) };
}
