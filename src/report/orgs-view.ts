import type { Report } from '../model/finding.js';
import type { CrossOrgCheck } from '../model/org-teams.js';
import { plural } from '../plural.js';

/** What each cross-org check is called on the page and in the summary. */
const CROSS_ORG_LABELS: Record<CrossOrgCheck['check'], string> = {
  'team-missing': 'team this org lacks',
  'empty-team': 'team with no members',
  'phantom-team': 'phantom _team entity',
};

/** The part of the page and summary a merged report (several orgs) adds: each org, and the cross-org checks. */
export interface OrgsView {
  shown: boolean;
  heading: string;
  rows: { name: string; id: string; automatic: number; manual: number; gate: string }[];
  checks: { label: string; org: string; message: string }[];
}

export function orgsView(report: Report): OrgsView {
  const orgs = report.orgs ?? [];
  const names = new Map(orgs.map((org) => [org.organization.id, org.organization.name]));
  const checks = report.crossOrg ?? [];
  return {
    shown: orgs.length > 0,
    heading: `${plural(orgs.length, 'org')}; ${plural(checks.length, 'finding', 'findings')} across orgs`,
    rows: orgs.map((org) => ({
      name: org.organization.name,
      id: org.organization.id,
      automatic: org.summary.automatic,
      manual: org.summary.manual,
      gate: org.gate ? `${org.gate.result}${org.gate.failing > 0 ? ` (${org.gate.failing} failing)` : ''}` : 'no gate',
    })),
    checks: checks.map((check) => ({ label: CROSS_ORG_LABELS[check.check], org: names.get(check.org) ?? check.org, message: check.message })),
  };
}
