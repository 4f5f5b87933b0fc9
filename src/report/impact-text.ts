/**
 * `finding.impact` (docs/decision-table.md) in words and as a weight: one sentence for a finding's card,
 * SARIF message and Markdown, and a number that orders the work (most people and entities first).
 */
import type { Finding, Report } from '../model/finding.js';
import { agreeing, plural } from '../plural.js';

/** "Blast radius: 2 of 5 entities change value (svc-a: "Payments" → "payments"); 3 people lose it." */
export function impactSentence(finding: Pick<Finding, 'impact'>): string {
  const impact = finding.impact;
  if (!impact) return '';
  const parts: string[] = [];
  if (impact.entities) {
    const { changed, read, example } = impact.entities;
    parts.push(`${changed} of ${plural(read, 'entity', 'entities')} ${agreeing(changed, 'changes', 'change')} value${example ? ` (${example.identifier}: ${example.before} → ${example.after})` : ''}`);
  }
  if (impact.rows) parts.push(`it matches ${plural(impact.rows.before, 'entity', 'entities')} before and ${impact.rows.after} after`);
  if (impact.scorecard) parts.push(`${plural(impact.scorecard.flipped, 'entity', 'entities')} ${agreeing(impact.scorecard.flipped, 'flips its', 'flip their')} result`);
  if (impact.users) parts.push(`${plural(impact.users.loses, 'person', 'people')} ${agreeing(impact.users.loses, 'loses', 'lose')} it, ${impact.users.gains} ${agreeing(impact.users.gains, 'gains', 'gain')} it`);
  return parts.length > 0 ? `Blast radius: ${parts.join('; ')}.` : '';
}

/** How much a finding moves: people who lose or gain, then entities and rows that change. */
export function impactWeight(finding: Pick<Finding, 'impact'>): number {
  const impact = finding.impact;
  if (!impact) return 0;
  const users = impact.users ? impact.users.loses + impact.users.gains : 0;
  const entities = (impact.entities?.changed ?? 0) + (impact.scorecard?.flipped ?? 0) + (impact.rows ? Math.abs(impact.rows.before - impact.rows.after) : 0);
  return users * 1000 + entities;
}

/** Totals over a report's findings, for summary.md and SARIF's run properties. */
export function impactTotals(report: Pick<Report, 'findings'>): { findings: number; entitiesChanged: number; usersLose: number; usersGain: number } {
  const totals = { findings: 0, entitiesChanged: 0, usersLose: 0, usersGain: 0 };
  for (const finding of report.findings) {
    if (!finding.impact) continue;
    totals.findings++;
    totals.entitiesChanged += (finding.impact.entities?.changed ?? 0) + (finding.impact.scorecard?.flipped ?? 0);
    totals.usersLose += finding.impact.users?.loses ?? 0;
    totals.usersGain += finding.impact.users?.gains ?? 0;
  }
  return totals;
}
