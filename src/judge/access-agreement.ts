import type { AccessChange } from '../model/access.js';
import type { Finding } from '../model/finding.js';
import { judgeSite, SITE_TABLE } from './decision-table.js';

/**
 * Issue 39: a reference checked and found fine (`verified`) and an access entry that says people
 * lose or gain the permission it decides cannot both stand. Running the place for the org's people
 * is the stronger evidence: the reference leaves `verified` as a finding the table judges.
 */
export function agreeWithAccess(findings: readonly Finding[], verified: readonly Finding[], access: readonly AccessChange[]): { findings: Finding[]; verified: Finding[] } {
  const flips = new Map<string, { loses: number; gains: number }>();
  for (const change of access) {
    if (change.finding === undefined || (!change.loses?.length && !change.gains?.length)) continue;
    const count = flips.get(change.finding) ?? { loses: 0, gains: 0 };
    count.loses += change.loses?.length ?? 0;
    count.gains += change.gains?.length ?? 0;
    flips.set(change.finding, count);
  }
  const moved: Finding[] = [];
  const kept: Finding[] = [];
  for (const finding of verified) {
    const count = flips.get(finding.id);
    if (count === undefined) kept.push(finding);
    else moved.push({ ...finding, verdict: judgeSite('access-flips'), reason: `${SITE_TABLE['access-flips'].why} (${count.loses} lose it, ${count.gains} gain it). ${finding.reason}` });
  }
  return { findings: moved.length === 0 ? [...findings] : [...findings, ...moved], verified: kept };
}
