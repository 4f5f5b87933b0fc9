import { InputError } from '../errors.js';
import { shortJson } from '../json-input.js';
import { isObject } from '../model/json.js';
import type { Finding, Report } from '../model/finding.js';
import { overThreshold, type GatePolicy } from '../gate.js';

export const BASELINE_FORMAT = 'teams-migration-audit-baseline/1';

/**
 * One accepted finding. Only `id` matches; `category`, `resource` and `location` are copies for
 * the people who review the baseline's diffs, and are never compared.
 */
export interface BaselineEntry {
  id: string;
  reason: string;
  by: string;
  category?: string;
  resource?: string;
  location?: string;
  /** An ISO date (YYYY-MM-DD): after it the entry accepts nothing and its finding counts again. */
  expires?: string;
}

export interface Baseline {
  format: typeof BASELINE_FORMAT;
  accepted: BaselineEntry[];
}

export const DEFAULT_ACCEPT_REASON = 'accepted at baseline creation';

const OPTIONAL_TEXT = ['category', 'resource', 'location'] as const;

/** Check a parsed baseline document; any problem is one InputError line naming the file and the entry. */
export function validateBaseline(document: unknown, path: string): Baseline {
  const fail = (what: string): never => {
    throw new InputError(`${path}: not a valid baseline: ${what}`);
  };
  if (!isObject(document)) return fail(`expected a JSON object with "format": "${BASELINE_FORMAT}"`);
  if (document.format !== BASELINE_FORMAT) {
    return fail(`"format" must be "${BASELINE_FORMAT}", found ${shortJson(document.format ?? null)}`);
  }
  if (!Array.isArray(document.accepted)) return fail('"accepted" must be an array');

  const seen = new Set<string>();
  const accepted = document.accepted.map((item, index): BaselineEntry => {
    const at = `accepted[${index}]`;
    if (!isObject(item)) return fail(`${at} must be an object`);
    for (const key of ['id', 'reason', 'by'] as const) {
      const value = item[key];
      if (typeof value !== 'string' || value.trim() === '') fail(`${at}.${key} must be a non-empty string`);
    }
    const entry: BaselineEntry = { id: item.id as string, reason: item.reason as string, by: item.by as string };
    for (const key of OPTIONAL_TEXT) {
      const value = item[key];
      if (value === undefined) continue;
      if (typeof value !== 'string') fail(`${at}.${key} must be a string when present`);
      entry[key] = value as string;
    }
    if (item.expires !== undefined) {
      if (typeof item.expires !== 'string' || !isIsoDate(item.expires)) fail(`${at}.expires must be an ISO date (YYYY-MM-DD), found ${shortJson(item.expires ?? null)}`);
      entry.expires = item.expires as string;
    }
    // A duplicate is usually a bad merge of two branches' baselines: make someone look at it.
    if (seen.has(entry.id)) fail(`${at}.id "${entry.id}" is listed twice`);
    seen.add(entry.id);
    return entry;
  });
  return { format: BASELINE_FORMAT, accepted };
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Whether the entry has expired on `today` (YYYY-MM-DD): the day after its `expires`, not on it. */
function hasExpired(entry: BaselineEntry, today: string | undefined): boolean {
  return entry.expires !== undefined && today !== undefined && today > entry.expires;
}

interface BaselineOutcome {
  report: Report;
  /** Entries that match no finding of this run, in the baseline's own order. */
  stale: BaselineEntry[];
  /**
   * Entries whose finding is now in `verified` (checked, nothing to do): not stale, since the
   * finding still exists and the entry is simply no longer needed; said apart so nobody hunts for it.
   */
  verified: BaselineEntry[];
  /** Entries past their `expires` date: they accept nothing, so their findings count again. */
  expired: BaselineEntry[];
}

/**
 * Mark the findings the baseline accepts. Pure: returns a new report; findings not in the baseline
 * are untouched. `today` (YYYY-MM-DD, the run's date) decides which entries have expired.
 */
export function applyBaseline(report: Report, baseline: Baseline, today?: string): BaselineOutcome {
  const expired = baseline.accepted.filter((entry) => hasExpired(entry, today));
  const byId = new Map(baseline.accepted.filter((entry) => !hasExpired(entry, today)).map((entry) => [entry.id, entry]));
  const findings = report.findings.map((finding): Finding => {
    const entry = byId.get(finding.id);
    return entry ? { ...finding, accepted: { reason: entry.reason, by: entry.by } } : finding;
  });
  const present = new Set(report.findings.map((finding) => finding.id));
  const verifiedIds = new Set((report.verified ?? []).map((finding) => finding.id));
  const stale = baseline.accepted.filter((entry) => !present.has(entry.id) && !verifiedIds.has(entry.id));
  const verified = baseline.accepted.filter((entry) => !present.has(entry.id) && verifiedIds.has(entry.id));
  return { report: { ...report, findings }, stale, verified, expired };
}

/**
 * A baseline accepting every finding the gate would count (with the default gate: the manual
 * ones, less those judged `unaffected`), in the report's stable order. Entries already in
 * `previous` keep their reason and author; entries of `previous` that match nothing are dropped.
 */
export function createBaseline(report: Report, policy: GatePolicy, by: string, previous?: Baseline): Baseline {
  const kept = new Map((previous?.accepted ?? []).map((entry) => [entry.id, entry]));
  // `--fail-on none` gates nothing, but someone writing a baseline wants the manual work recorded.
  const writePolicy: GatePolicy = policy.failOn === 'none' ? { ...policy, failOn: 'manual' } : policy;
  const accepted = report.findings
    .filter((finding) => overThreshold(finding, writePolicy))
    .map((finding): BaselineEntry => {
      const old = kept.get(finding.id);
      return {
        id: finding.id,
        reason: old?.reason ?? DEFAULT_ACCEPT_REASON,
        by: old?.by ?? by,
        category: finding.category,
        resource: `${finding.resource.type} ${finding.resource.identifier}`,
        location: finding.location,
        ...(old?.expires !== undefined && { expires: old.expires }),
      };
    });
  return { format: BASELINE_FORMAT, accepted };
}

/** Stable text: two-space JSON, keys in a fixed order, one trailing newline, so diffs stay small. */
export function renderBaseline(baseline: Baseline): string {
  const accepted = baseline.accepted.map((entry) => {
    const ordered: BaselineEntry = { id: entry.id, reason: entry.reason, by: entry.by };
    for (const key of OPTIONAL_TEXT) if (entry[key] !== undefined) ordered[key] = entry[key];
    if (entry.expires !== undefined) ordered.expires = entry.expires;
    return ordered;
  });
  return `${JSON.stringify({ format: baseline.format, accepted }, null, 2)}\n`;
}

/** Who accepts the findings of a new baseline: the flag, else the CI's actor, else the login name. */
export function acceptedByFrom(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const candidates = [flag, env.GITHUB_ACTOR, env.GITLAB_USER_LOGIN, env.USER, env.USERNAME];
  return candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '')?.trim() ?? 'unknown';
}
