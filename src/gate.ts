import type { Finding, GateResult, Report, Verdict } from './model/finding.js';

/** The CI contract (docs/ci.md, "Exit codes"): scripts and pipelines rely on these numbers. */
export const EXIT = { pass: 0, gateFailed: 1, usage: 2, incomplete: 3 } as const;

export const FAIL_ON = ['none', 'manual', 'any'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** The lowest verdict that still counts, for findings that carry one. */
export const FAIL_ON_VERDICT = ['breaks', 'review'] as const;
export type FailOnVerdict = (typeof FAIL_ON_VERDICT)[number];

export interface GatePolicy {
  failOn: FailOn;
  /** Unset means `review`: every verdict but `unaffected` counts. */
  failOnVerdict?: FailOnVerdict;
}

const VERDICT_RANK: Record<Verdict, number> = { unaffected: 0, review: 1, breaks: 2 };

/**
 * Whether a finding is over the threshold, before the baseline is considered.
 * - `--fail-on` picks the kinds: none, manual only, or any.
 * - A finding with a verdict counts only at or above `--fail-on-verdict` (default `review`), so an
 *   `unaffected` verdict (the expression already uses identifiers: nothing to change) never fails
 *   the gate. A finding without a verdict counts whenever its kind does: nobody has judged it safe.
 */
export function overThreshold(finding: Pick<Finding, 'kind' | 'verdict'>, policy: GatePolicy): boolean {
  if (policy.failOn === 'none') return false;
  if (policy.failOn === 'manual' && finding.kind !== 'manual') return false;
  if (finding.verdict === undefined) return true;
  return VERDICT_RANK[finding.verdict] >= VERDICT_RANK[policy.failOnVerdict ?? 'review'];
}

/** Over the threshold and not accepted in the baseline: this finding fails the build. */
export function failsGate(finding: Pick<Finding, 'kind' | 'verdict' | 'accepted'>, policy: GatePolicy): boolean {
  return overThreshold(finding, policy) && finding.accepted === undefined;
}

/** The gate's answer for a report whose findings already carry their baseline acceptance. */
export function evaluateGate(report: Report, policy: GatePolicy, staleBaselineIds: readonly string[] = [], failOnStale = false): GateResult {
  const failing = report.findings.filter((finding) => failsGate(finding, policy)).length;
  const accepted = report.findings.filter((finding) => finding.accepted !== undefined).length;
  // An incomplete scan is never a pass, whatever it found: what could not be read may hold more.
  // Only a repository file a person has accepted in the baseline (unreadable on purpose) is let through.
  const unread = report.incomplete.filter((item) => item.accepted === undefined).length;
  // `--fail-on-stale-baseline`: an entry that accepts nothing fails the gate, as an unused suppression fails a linter.
  const staleFails = failOnStale && staleBaselineIds.length > 0;
  const result = unread > 0 ? 'incomplete' : failing > 0 || staleFails ? 'failed' : 'passed';
  const gate: GateResult = { failOn: policy.failOn, result, failing, accepted };
  if (policy.failOnVerdict !== undefined) gate.failOnVerdict = policy.failOnVerdict;
  if (staleBaselineIds.length > 0) gate.staleBaselineIds = [...staleBaselineIds].sort();
  if (staleFails) gate.staleFails = true;
  return gate;
}

export function exitCodeFor(gate: GateResult): number {
  return gate.result === 'incomplete' ? EXIT.incomplete : gate.result === 'failed' ? EXIT.gateFailed : EXIT.pass;
}

/** The gate as a report carries it; a report analysed without one is treated as the default gate. */
export function policyOf(report: Report): GatePolicy {
  const gate = report.gate;
  if (!gate) return { failOn: 'manual' };
  return gate.failOnVerdict === undefined ? { failOn: gate.failOn } : { failOn: gate.failOn, failOnVerdict: gate.failOnVerdict };
}
