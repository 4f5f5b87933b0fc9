import { createHash } from 'node:crypto';
import { compareFindings, summarize } from '../analyze.js';
import { compareText } from '../compare-text.js';
import { InputError } from '../errors.js';
import type { GateResult, OrgOfMerge, Report } from '../model/finding.js';
import { crossOrgChecks, type OrgTeamsOf } from './cross-org.js';

/**
 * Reports of several orgs, each written by its own run (a CI matrix: one job per org), as one
 * report (issue 41): every finding marked with its org, each org's own figures in `orgs`, and what
 * only the orgs side by side show in `crossOrg`. The orgs are taken in `organization.id` order, so
 * the reports may be given in any order; the same reports give the same bytes. Pure.
 */
export function mergeReports(reports: readonly Report[]): Report {
  if (reports.length === 0) throw new InputError('merge needs at least one report');
  const sorted = [...reports].sort((a, b) => compareText(a.organization.id, b.organization.id) || compareText(a.organization.name, b.organization.name));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.organization.id === sorted[i - 1]!.organization.id) throw new InputError(`merge: two reports are of the org ${JSON.stringify(sorted[i]!.organization.id)}; give one report per org`);
  }
  const findings = sorted.flatMap((report) => report.findings.map((finding) => ({ ...finding, org: report.organization.id }))).sort((a, b) => compareFindings(a, b) || compareText(a.org, b.org));
  const verified = sorted.flatMap((report) => (report.verified ?? []).map((finding) => ({ ...finding, org: report.organization.id }))).sort((a, b) => compareFindings(a, b) || compareText(a.org, b.org));
  const named = (report: Report, text: string) => `${report.organization.name}: ${text}`;
  const incomplete = sorted.flatMap((report) => report.incomplete.map((item) => ({ ...item, resource: named(report, item.resource) })));
  const notes = sorted.flatMap((report) => (report.notes ?? []).map((note) => named(report, note)));
  const ruleErrors = sorted.flatMap((report) => report.ruleErrors ?? []);
  const withTeams = sorted.filter((report) => report.orgTeams !== undefined).map((report): OrgTeamsOf => ({ organization: report.organization, teams: report.orgTeams! }));
  const orgs = sorted.map(
    (report): OrgOfMerge => ({
      organization: report.organization,
      summary: report.summary,
      findings: report.findings.length,
      incomplete: report.incomplete.length,
      ...(report.gate && { gate: report.gate }),
      ...(report.run && { run: report.run }),
    }),
  );
  const gate = mergedGate(sorted);
  const dataReadAt = sorted.map((report) => report.run?.dataReadAt).filter((at): at is string => at !== undefined).sort()[0];
  const runId = createHash('sha256').update(sorted.map((report) => `${report.organization.id} ${report.run?.id ?? ''}\n`).join('')).digest('hex').slice(0, 16);
  return {
    format: 'impact-report/1',
    organization: { id: sorted.map((report) => report.organization.id).join('+'), name: `${sorted.length} orgs: ${sorted.map((report) => report.organization.name).join(', ')}` },
    summary: summarize(findings),
    incomplete,
    findings,
    ...(notes.length > 0 && { notes }),
    ...(ruleErrors.length > 0 && { ruleErrors }),
    ...(gate && { gate }),
    ...(verified.length > 0 && { verified }),
    orgs,
    crossOrg: crossOrgChecks(withTeams),
    run: { id: runId, ...(dataReadAt !== undefined && { dataReadAt }) },
  };
}

/** The orgs' gates as one: incomplete if any org's is, failed if any failed; the counts added up. */
function mergedGate(reports: readonly Report[]): GateResult | undefined {
  const gates = reports.map((report) => report.gate).filter((gate): gate is GateResult => gate !== undefined);
  if (gates.length === 0) return undefined;
  const result = gates.some((gate) => gate.result === 'incomplete') ? 'incomplete' : gates.some((gate) => gate.result === 'failed') ? 'failed' : 'passed';
  const accepted = gates.reduce((sum, gate) => sum + (gate.accepted ?? 0), 0);
  const first = gates[0]!;
  return {
    failOn: first.failOn,
    ...(first.failOnVerdict !== undefined && { failOnVerdict: first.failOnVerdict }),
    result,
    failing: gates.reduce((sum, gate) => sum + gate.failing, 0),
    ...(accepted > 0 && { accepted }),
  };
}
