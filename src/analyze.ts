import { createHash } from 'node:crypto';
import { computeAccess, withUserImpact } from './access/compute-access.js';
import type { Catalog } from './catalog/catalog.js';
import { compareText } from './compare-text.js';
import { agreeWithAccess } from './judge/access-agreement.js';
import { CATEGORY_DOCS } from './model/category-docs.js';
import type { Finding, FindingDraft, IncompleteItem, Report, RuleError } from './model/finding.js';
import type { Rule } from './rules/rule.js';
import { RULES } from './rules/index.js';
import { prefetchRuleJq } from './jq/prefetch-rules.js';
import { judgeRule } from './judge/site-judge.js';
import { prefetchTeamValued } from './judge/team-valued.js';
import { appendAll } from './model/arrays.js';

export interface AnalyzeOptions {
  rules?: readonly Rule[];
  /** Findings from outside the org (repository files), added to the same report. */
  extraFindings?: readonly FindingDraft[];
  /** What else could not be read (repository files, ...), on top of the snapshot's own entries. */
  extraIncomplete?: readonly IncompleteItem[];
  /** Input values of an unexpected shape (from loading the snapshot), kept as report.notes. */
  notes?: readonly string[];
  /** What else the run noticed (the repository scan's skipped files and advice), kept as report.notes after `notes`. */
  extraNotes?: readonly string[];
  /** Settles the rules' drafts with what was read outside the org (an integration's mapping found in a scanned repository). */
  reviseDrafts?: (drafts: readonly FindingDraft[]) => FindingDraft[];
}

/** Same category, resource and location → same id, across runs and machines. */
export function fingerprint(draft: Pick<FindingDraft, 'category' | 'resource' | 'location'>): string {
  const key = [draft.category, draft.resource.type, draft.resource.identifier, draft.location].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** Run every rule; a rule that throws becomes a ruleError (and an incomplete run), never a crash. */
export function analyze(catalog: Catalog, options: AnalyzeOptions = {}): Report {
  const drafts: FindingDraft[] = [...(options.extraFindings ?? [])];
  const ruleErrors: RuleError[] = [];
  // Issue 17: jq answers what the rules will ask in a few large requests, not one call each; first
  // what calculations do with team values, which decides what the rules then run.
  prefetchTeamValued(catalog);
  prefetchRuleJq(catalog, options.rules ?? RULES, judgeRule);
  for (const rule of options.rules ?? RULES) {
    try {
      appendAll(drafts, judgeRule(catalog, rule));
    } catch (error) {
      ruleErrors.push({ rule: rule.category, message: error instanceof Error ? error.message : String(error) });
    }
  }

  // Issue 39: what the judge could not judge and the migration changes nothing in is a note, not a finding.
  const judgedNotes: string[] = [];
  for (const draft of drafts) if (draft.noteOnly) judgedNotes.push(`${draft.category}: ${draft.resource.type} ${JSON.stringify(draft.resource.identifier)} ${draft.location}: not judged: ${draft.reason}${draft.note === undefined ? '' : ` (${draft.note})`}`);
  const judged = drafts.filter((draft) => !draft.noteOnly);
  const revised = options.reviseDrafts ? options.reviseDrafts(judged) : judged;
  const all = dedupe(revised.map(toFinding)).sort(compareFindings);
  // docs/formats.md, the report: who loses or gains a permission, when the snapshot lists its users; a
  // checked reference where someone does cannot stay checked (issue 39).
  const access = computeAccess(catalog, all);
  const split = splitVerified(all);
  const { findings, verified } = access ? agreeWithAccess(split.findings, split.verified, access) : split;
  findings.sort(compareFindings);
  const incomplete: IncompleteItem[] = [...catalog.incomplete, ...(options.extraIncomplete ?? [])];
  // A live read that could not read the blueprints has named them already: their entities follow from them.
  const unread = new Set(catalog.incomplete.map((item) => item.resource));
  if (!catalog.entitiesFetched && !unread.has('blueprints')) {
    incomplete.push({
      resource: 'entities',
      reason: 'the snapshot has no entities, so blueprints whose entities carry $team values (ownership-direct) could not be found',
    });
  }
  for (const error of ruleErrors) {
    incomplete.push({ resource: `rule ${error.rule}`, reason: `the rule failed: ${error.message}` });
  }

  const report: Report = {
    format: 'impact-report/1',
    organization: { id: catalog.organization.id, name: catalog.organization.name },
    summary: summarize(findings),
    incomplete,
    findings,
  };
  // Issue 25: how the migration state was read, where the shapes disagree with it.
  const notes = [...(options.notes ?? []), ...(catalog.migrationState?.notes ?? []), ...(options.extraNotes ?? []), ...new Set(judgedNotes)];
  // Snapshots recorded before scorecards were read (docs/formats.md, the org snapshot) lack the key: not a gap in
  // what was recorded, but the scorecard-rule category was not checked, and the reader must know.
  // A live read that could not read them has them in `incomplete`, which says more than a note.
  if (catalog.snapshot.scorecards === undefined && !unread.has('scorecards')) {
    notes.push('scorecards: the snapshot has none recorded (it predates scorecard support, or was written by hand), so scorecard conditions were not checked; record it again with `snapshot` to include them');
  }
  if (notes.length > 0) report.notes = notes;
  if (access) {
    report.access = access;
    report.findings = withUserImpact(findings, access);
  }
  if (ruleErrors.length > 0) report.ruleErrors = ruleErrors;
  if (verified.length > 0) report.verified = verified;
  return report;
}

/**
 * docs/formats.md, the report: a reference judged `unaffected` was checked and needs nothing, so it is no
 * finding; it goes to `verified`, and after the migration `findings` is only what is still broken.
 */
function splitVerified(all: readonly Finding[]): { findings: Finding[]; verified: Finding[] } {
  const findings: Finding[] = [];
  const verified: Finding[] = [];
  for (const finding of all) (finding.verdict === 'unaffected' ? verified : findings).push(finding);
  return { findings, verified };
}

function toFinding(draft: FindingDraft): Finding {
  const { category, resource, location, evidence, reason, suggestion, ...optional } = draft;
  return {
    id: fingerprint(draft),
    kind: CATEGORY_DOCS[category].kind,
    category,
    resource,
    location,
    evidence,
    reason,
    suggestion,
    ...optional,
  };
}

/**
 * One finding per distinct location. A repeat of the same finding is dropped; two different ones
 * at one location (two expressions on one line of a file, whose location is `file:line`) become
 * one, so neither is lost: the more severe leads, and the other's reason and advice follow it.
 */
function dedupe(findings: Finding[]): Finding[] {
  const byId = new Map<string, Finding>();
  for (const finding of findings) {
    const first = byId.get(finding.id);
    byId.set(finding.id, first === undefined ? finding : mergeFindings(first, finding));
  }
  return [...byId.values()];
}

const SEVERITY: Record<string, number> = { breaks: 3, review: 2, unaffected: 1 };

function mergeFindings(a: Finding, b: Finding): Finding {
  if (a.reason === b.reason && a.evidence === b.evidence) return a;
  const [lead, other] = (SEVERITY[b.verdict ?? ''] ?? 0) > (SEVERITY[a.verdict ?? ''] ?? 0) ? [b, a] : [a, b];
  const join = (x: string | undefined, y: string | undefined) => (x === undefined || x === y ? y : y === undefined || x.includes(y) ? x : `${x} ${y}`);
  const merged: Finding = { ...lead, reason: join(lead.reason, other.reason)!, suggestion: join(lead.suggestion, other.suggestion)! };
  if (lead.evidence !== other.evidence) merged.evidence = join(lead.evidence, other.evidence)!;
  const note = join(lead.note, other.note);
  if (note !== undefined) merged.note = note;
  return merged;
}

/** Sort order fixed by docs/formats.md: kind, category, resource type, identifier, location. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareText(a.kind, b.kind) ||
    compareText(a.category, b.category) ||
    compareText(a.resource.type, b.resource.type) ||
    compareText(a.resource.identifier, b.resource.identifier) ||
    compareText(a.location, b.location)
  );
}

export function summarize(findings: readonly Finding[]): Report['summary'] {
  const byCategory: Report['summary']['byCategory'] = {};
  let automatic = 0;
  for (const finding of findings) {
    if (finding.kind === 'automatic') automatic++;
    byCategory[finding.category] = (byCategory[finding.category] ?? 0) + 1;
  }
  return { automatic, manual: findings.length - automatic, byCategory };
}
