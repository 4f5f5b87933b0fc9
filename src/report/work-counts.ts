/**
 * The counts every output shows (the page's cards and section notes, summary.md), made in one
 * place so no two disagree: manual and automatic findings split by where they are (the org, or
 * files of the scanned repositories), manual ones by verdict, and the words for each verdict.
 */
import type { Finding, Verdict } from '../model/finding.js';
import { plural } from '../plural.js';

/**
 * Manual work with no verdict (a relation's data to move) is no judgement call: a person acts on
 * it, so every output calls it "Needs action", never "No verdict".
 */
export const VERDICT_LABELS: Record<Verdict | 'none', string> = {
  breaks: 'Breaks',
  review: 'Needs review',
  unaffected: 'Unaffected',
  none: 'Needs action',
};

interface PlaceCounts {
  all: number;
  /** In the org's own resources. */
  org: number;
  /** In files of the scanned repositories. */
  files: number;
}

export interface WorkCounts {
  manual: PlaceCounts;
  automatic: PlaceCounts;
  /** Every finding in a repository file, manual or automatic. */
  files: number;
  /** Manual findings by verdict (`none`: needs action). */
  manualBy: Record<Verdict | 'none', number>;
  accepted: number;
}

export const isFileFinding = (finding: Finding): boolean => finding.resource.type === 'file';

/** Where a finding is, in one line: a file's `path:line`, else `<type> <identifier>: <location>`. */
export const placeOf = (finding: Finding): string =>
  isFileFinding(finding) ? finding.location : `${finding.resource.type} ${finding.resource.identifier}: ${finding.location}`;

export function workCounts(findings: readonly Finding[]): WorkCounts {
  const place = (kind: Finding['kind']): PlaceCounts => {
    const mine = findings.filter((f) => f.kind === kind);
    const files = mine.filter(isFileFinding).length;
    return { all: mine.length, org: mine.length - files, files };
  };
  const manual = findings.filter((f) => f.kind === 'manual');
  const by = (verdict: Verdict | 'none') => manual.filter((f) => (f.verdict ?? 'none') === verdict).length;
  return {
    manual: place('manual'),
    automatic: place('automatic'),
    files: findings.filter(isFileFinding).length,
    manualBy: { breaks: by('breaks'), review: by('review'), unaffected: by('unaffected'), none: by('none') },
    accepted: findings.filter((f) => f.accepted !== undefined).length,
  };
}

/** Where a total's items are, when some are in repository files: `29 in the org, 25 in your repositories`. */
export function placeSplit(counts: PlaceCounts): string {
  return counts.files === 0 ? '' : `${counts.org} in the org, ${counts.files} in your repositories`;
}

/** The manual part's note on what it leaves to the repositories' part, so its count and the total agree. */
export function manualElsewhere(counts: WorkCounts): string {
  return counts.manual.files === 0
    ? ''
    : ` Of the ${plural(counts.manual.all, 'manual item', 'manual items')} in all, ${counts.manual.files} ${counts.manual.files === 1 ? 'is' : 'are'} in your repositories' files, listed under "Your repositories".`;
}
