/**
 * Retry and rate-limit policy as plain data plus pure functions, so the client stays a thin loop
 * and tests can assert every wait exactly (docs/live-service.md, retries).
 */
export const DEFAULT_RETRY_POLICY = {
  /** The service's retry rules: "at most 5 retries" for transient failures (5xx, timeouts, connection resets). */
  maxRetries: 5,
  /** The service's retry rules: base delay of 1 second; retry n (from 0) waits base × 2^n. */
  baseDelayMs: 1_000,
  /** The service's retry rules: the delay is capped at 32 seconds. */
  maxDelayMs: 32_000,
  /** Errors table, 429 row: wait 60 seconds when `x-ratelimit-reset` is absent. */
  defaultResetSeconds: 60,
  /**
   * Ours, not the spec's: 429s get their own budget so a storm cannot loop forever. A bound only:
   * ten windows of waiting is already far beyond a normal run.
   */
  maxRateLimitRetries: 10,
  /**
   * Ours: the longest single rate-limit wait, one 5-minute window. The service plans budgets per 5-minute
   * window, so a reset further out is not a window: the request gives up and its resource becomes a gap instead.
   */
  maxRateLimitWaitMs: 300_000,
  /**
   * Ours: the most wall time one run spends held by the rate limit, all waits together: two 5-minute
   * windows. An audit shares the org's budget with integrations and Terraform, and a CI job
   * has its own limit: a run that needs more is competing with the org's own traffic. Beyond it the
   * requests still waiting give up and their resources become gaps.
   */
  maxTotalRateLimitWaitMs: 600_000,
};

export type RetryPolicy = Readonly<Record<keyof typeof DEFAULT_RETRY_POLICY, number>>;

/** The reason a request gives up instead of waiting `waitMs` for the rate limit. */
export function overlongWaitReason(policy: RetryPolicy, waitMs: number, what: string): string {
  return `${what} and asked to wait ${Math.ceil(waitMs / 1_000)} s, over the ${policy.maxRateLimitWaitMs / 1_000} s this tool waits`;
}

/** The reason a request gives up because the run's waits together would pass the total cap. */
export function overTotalWaitReason(policy: RetryPolicy, waitedMs: number, waitMs: number): string {
  return `the rate limit already held this run ${Math.round(waitedMs / 1_000)} s and asked for ${Math.ceil(waitMs / 1_000)} s more, over the ${policy.maxTotalRateLimitWaitMs / 1_000} s this tool waits in all`;
}

/** What one attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; resetSeconds?: number }
  | { kind: 'network'; message: string };

export interface RetryState {
  transientRetries: number;
  rateLimitRetries: number;
}

type RetryDecision =
  | { action: 'accept' }
  | { action: 'retry'; waitMs: number; reason: 'rate-limit' | 'transient' }
  /** `capped`: the request could go on after a wait, but the wait is over this tool's cap. */
  | { action: 'give-up'; reason: string; capped?: boolean };

function isTransientStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}

/** The service's retry rules (docs/live-service.md): 1 s × 2^n, capped. */
export function backoffDelayMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs);
}

/**
 * Ours: a 429 is never retried at once. A reset of 0, or an epoch already past by our clock (the
 * two clocks differ by a second or more), would otherwise spend every 429 retry in a burst.
 */
const MIN_RATE_LIMIT_WAIT_MS = 1_000;

/** The service's retry rules and its errors table: prefer `x-ratelimit-reset`, else the documented fallback. */
function rateLimitWaitMs(policy: RetryPolicy, resetSeconds: number | undefined): number {
  return Math.max(MIN_RATE_LIMIT_WAIT_MS, (resetSeconds ?? policy.defaultResetSeconds) * 1_000);
}

/** Decide what follows one attempt. Pure: the caller owns the state and the sleeping. */
export function decideRetry(policy: RetryPolicy, outcome: AttemptOutcome, state: RetryState): RetryDecision {
  if (outcome.kind === 'response' && outcome.status === 429) {
    if (state.rateLimitRetries >= policy.maxRateLimitRetries) {
      return { action: 'give-up', reason: `still rate limited (HTTP 429) after ${policy.maxRateLimitRetries} waits` };
    }
    const waitMs = rateLimitWaitMs(policy, outcome.resetSeconds);
    if (waitMs > policy.maxRateLimitWaitMs) return { action: 'give-up', reason: overlongWaitReason(policy, waitMs, 'rate limited (HTTP 429)'), capped: true };
    return { action: 'retry', waitMs, reason: 'rate-limit' };
  }
  const transient = outcome.kind === 'network' || isTransientStatus(outcome.status);
  if (!transient) return { action: 'accept' };
  if (state.transientRetries >= policy.maxRetries) {
    const what = outcome.kind === 'network' ? outcome.message : `HTTP ${outcome.status}`;
    return { action: 'give-up', reason: `${what} after ${policy.maxRetries} retries` };
  }
  return { action: 'retry', waitMs: backoffDelayMs(policy, state.transientRetries), reason: 'transient' };
}
