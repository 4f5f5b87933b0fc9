/** Findings and the report (`impact-report/1`, described for users in docs/formats.md). */
import type { CrossOrgCheck, OrgTeams } from './org-teams.js';
import type { ReportRun } from '../report/run-info.js';
import type { AccessChange } from './access.js';
import type { ResourceRef } from './resource.js';

export { RESOURCE_TYPES, type ResourceRef, type ResourceType } from './resource.js';

export type FindingKind = 'automatic' | 'manual';

export const CATEGORIES = [
  'ownership-direct',
  'ownership-inherited',
  'team-relation-removed',
  'team-permission-identifiers',
  'external-ownership',
  'calculation-property',
  'action-user-input',
  'action-mapping',
  'action-dynamic-permission',
  'integration-mapping',
  'webhook-mapping',
  'page-widget',
  'relation-ownership',
  // docs/formats.md, the report: appended, so SARIF rule indexes of the categories above stay put.
  'scorecard-rule',
  'mirror-property',
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * What the migration does to a manual finding's expression: `breaks` (it will behave differently),
 * `review` (it reads team values; a person must judge), `unaffected` (it already uses identifiers).
 */
export type Verdict = 'breaks' | 'review' | 'unaffected';

export interface Finding {
  id: string;
  /** In a report of several orgs (`merge`, issue 41): the `organization.id` of the org it is in. */
  org?: string;
  kind: FindingKind;
  category: Category;
  resource: ResourceRef;
  location: string;
  evidence: string;
  reason: string;
  suggestion: string;
  /** Optional extensions (added, never renamed): see docs/formats.md, the report (fields are only ever added). */
  verdict?: Verdict;
  /** The concrete replacement value or expression, when it can be computed. */
  rewrite?: string;
  /** For a jq rewrite: whether it was checked to compile (only then is it offered to copy as is). */
  rewriteCompiles?: boolean;
  /**
   * docs/formats.md, the report: `proven` when the rewrite run after the migration gives what the original
   * gives before it on every context of the org; `suggested` otherwise. Only proven rewrites are applied by the fix kit.
   */
  rewriteProof?: 'proven' | 'suggested';
  /** docs/formats.md, the report: the blast radius, measured on the org's data read for this run. */
  impact?: FindingImpact;
  /** Anything the analysis noticed but could not settle (a dangling inheritance hop, invalid jq). */
  note?: string;
  /** Set when a `--baseline` entry accepts this finding: it stays visible but does not fail the gate. */
  accepted?: { reason: string; by: string };
  /**
   * Issue 29: a gate that lets nobody through (or errors for everybody) before the migration and
   * after it. Broken already, not a migration change: its verdict is `review`, never `breaks`.
   */
  deadGate?: DeadGate;
}

/** A condition that has never let anyone through (docs/decision-table.md, "Dead gates"). */
export interface DeadGate {
  outcome: 'matches-nobody' | 'errors-for-everybody';
  /** Emails of the people it shuts out (sorted), when the snapshot lists the org's people. */
  shutOut?: string[];
}

export interface FindingImpact {
  entities?: { changed: number; read: number; example?: { identifier: string; before: string; after: string } };
  rows?: { before: number; after: number };
  scorecard?: { flipped: number; levels?: { from: string; to: string; entities: number }[] };
  users?: { loses: number; gains: number };
}

/**
 * What a rule reports; `analyze` adds `id` and `kind`. `noteOnly`: the judge's answer is a line of
 * `report.notes` (its place, reason and note), not a finding (docs/decision-table.md, `does-not-compile`).
 */
export type FindingDraft = Omit<Finding, 'id' | 'kind'> & { noteOnly?: true };

export interface IncompleteItem {
  resource: string;
  reason: string;
  /** A repository file that could not be read: its stable id, which a baseline entry can accept. */
  id?: string;
  /** Accepted in the baseline: still listed, no longer an incomplete run. */
  accepted?: { reason: string; by: string };
}

export interface RuleError {
  rule: Category;
  message: string;
}

export interface Report {
  format: 'impact-report/1';
  organization: { id: string; name: string };
  summary: {
    automatic: number;
    manual: number;
    byCategory: Partial<Record<Category, number>>;
  };
  incomplete: IncompleteItem[];
  findings: Finding[];
  /**
   * Values of the input in a shape the rules do not (fully) understand, one line each naming its
   * path (docs/formats.md, the org snapshot). They are read as far as understood; a note alone never fails a run.
   */
  notes?: string[];
  /** A rule that threw: its category could not be checked, so the run is incomplete (exit 3). */
  ruleErrors?: RuleError[];
  /** The CI gate's answer for this run, when a gate was applied (see src/cli.ts exit codes). */
  gate?: GateResult;
  /** docs/formats.md, the report: who loses or gains a permission, when the snapshot has users. */
  access?: AccessChange[];
  /**
   * docs/formats.md, the report: team references checked and needing nothing (`verdict: unaffected`), kept
   * out of `findings` so that after the migration the findings are only what is still broken.
   * Present when there is at least one; they never fail a gate.
   */
  verified?: Finding[];
  /** docs/formats.md, the report, with `--since PREVIOUS_REPORT.json`: what was fixed since that report. */
  progress?: Progress;
  /** The fix kit written beside the report (docs/formats.md, the report `fixes`). */
  fixes?: FixesSummary;
  /** docs/formats.md, the report: which run wrote this report; every file of one run carries the same id. */
  run?: ReportRun;
  /** Issue 41: the org's teams, members and team names, so reports of several orgs can be checked together. */
  orgTeams?: OrgTeams;
  /** Issue 41, a report of several orgs (`merge`): each org's own figures, in `organization.id` order. */
  orgs?: OrgOfMerge[];
  /** Issue 41, a report of several orgs: what only the orgs side by side show (src/orgs/cross-org.ts). */
  crossOrg?: CrossOrgCheck[];
}

/** One org of a merged report: what its own report said, its findings and unread items counted. */
export interface OrgOfMerge extends Pick<Report, 'organization' | 'summary' | 'gate' | 'run'> {
  findings: number;
  incomplete: number;
}

/** A finding of the previous report as `progress.fixed` lists it. */
export interface FixedFinding extends Pick<Finding, 'id' | 'category' | 'resource' | 'location'> {
  /** Where it went: gone from the report, or checked and now needing nothing (`verified`). */
  now: 'absent' | 'verified';
  /**
   * Verified with the same text it had when it broke: nobody fixed it, the migration changed what
   * it reads and it now passes identifiers on. Whoever receives them may still expect titles.
   */
  unchanged?: true;
}

export interface Progress {
  since: {
    /** How many findings the previous report had: the "of N" in "12 of 40 fixed". */
    findings: number;
    organization: { id: string; name: string };
    /** When the previous report was written (its file's modification time), ISO 8601. */
    date?: string;
  };
  /** Previous findings now absent or in `verified`. */
  fixed: FixedFinding[];
  /** Previous findings still in `findings`. */
  open: number;
  /** Findings of this run that the previous report did not have. */
  new: number;
  /** This run could not read everything: a finding counted fixed may only have gone unread. */
  provisional?: true;
  /** Previous findings in repositories this run did not scan: neither fixed nor open. */
  notCompared?: number;
  /**
   * Of the people the previous report's `access` said would lose a permission, those who still do
   * not hold it now (present when both reports know the org's users).
   */
  stillLockedOut?: AccessChange[];
}

/** docs/formats.md, the report `fixes`: the folder, every file written and the finding ids each resolves. */
export interface FixesSummary {
  dir: string;
  files: { path: string; kind: 'repo-patch' | 'resource' | 'data-migration' | 'bulk-upsert' | 'predicted-org' | 'readme'; findings: string[] }[];
  /** Breaking findings the kit holds no fix for, and what is missing for each (a teams map, a person's decision). */
  unresolved?: { id: string; missing: string }[];
  /** The folder relative to the HTML report, for its "Download fix" links. */
  fromReport?: string;
}

export interface GateResult {
  failOn: 'none' | 'manual' | 'any';
  /** `--fail-on-verdict`: where findings carry a verdict, only those at or above it count. */
  failOnVerdict?: 'breaks' | 'review';
  result: 'passed' | 'failed' | 'incomplete';
  /** Findings over the threshold and not accepted by the baseline. */
  failing: number;
  /** Findings a baseline entry accepted (they stay in the report, marked `accepted`). */
  accepted?: number;
  /** Baseline entries whose finding no longer exists. */
  staleBaselineIds?: string[];
  /** `--fail-on-stale-baseline` was given and stale entries failed the gate. */
  staleFails?: boolean;
  /** Baseline entries past their `expires` date: their findings count again. */
  expiredBaselineIds?: string[];
  /** Baseline entries whose finding is now in `verified`: nothing to do, so the entry can go (not stale). */
  verifiedBaselineIds?: string[];
}
