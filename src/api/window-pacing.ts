/**
 * Issue 17 and the service's rate limits: spend a rate-limit window's budget evenly instead of exhausting it and
 * waiting. The first half of the budget goes at once (a small org is not slowed); past it, each
 * start sets the earliest time of the next one so that what is left lasts until the reset.
 *
 * Decided at each start from the budget as it is then, never as a queue of times booked ahead:
 * booked times were computed from budgets that did not yet count the requests booked before them,
 * ran past the reset and held concurrency slots into the next window (measured: a window's budget
 * a quarter unused, the 1x org at 1.07–1.13x its floor under 100 requests per 10 s).
 */
export interface WindowBudget {
  limit?: number;
  /** Requests the service still accepts in this window, as of the latest answer. */
  remaining: number;
  /** When the window resets (epoch ms), as the client estimates it (never before the service's). */
  resetAt: number;
}

/** Whether starts are spaced now: a known window, less than half of its budget left beside those in flight. */
export function isPaced(budget: WindowBudget | undefined, inFlight: number, now: number, maxWaitMs: number): boolean {
  if (!budget || budget.limit === undefined || now >= budget.resetAt) return false;
  if (budget.resetAt - now > maxWaitMs) return false; // not a window: the 429 path decides
  return (budget.remaining - inFlight) * 2 < budget.limit;
}

/**
 * The earliest start after one at `startedAt` (already counted in `inFlight`): the time to the
 * reset shared by what is left and one more gap, so the last start falls before the reset, not on
 * it (the estimate is late by up to a second: a start on it may land in the next window).
 */
export function nextStartAfter(budget: WindowBudget | undefined, inFlight: number, startedAt: number): number {
  if (!budget || budget.limit === undefined || startedAt >= budget.resetAt) return startedAt;
  const left = Math.max(0, budget.remaining - inFlight);
  return startedAt + Math.ceil((budget.resetAt - startedAt) / (left + 1));
}
