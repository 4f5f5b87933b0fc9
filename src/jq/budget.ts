/**
 * One time budget for all of a run's jq (issue 38 item 9): each request's wait is spent from it,
 * and a request that timed out also from a smaller budget of its own, so an org of never-ending
 * expressions costs a bounded time (each one cost a time limit plus a lone retry: 100 of them
 * added 100 s). Once either is spent no request is sent: what is left is named as unjudged and the
 * run is incomplete, never a pass. The clock is injected so tests spend it without waiting.
 */
export interface JqBudgetOptions {
  /** All of jq's time in one run, in milliseconds. */
  totalMs?: number;
  /** The time lost to requests that timed out or crashed, in milliseconds. */
  failedMs?: number;
  /** Milliseconds; `Date.now` unless a test moves its own. */
  now?: () => number;
}

/**
 * 300 s of jq in all: the 10x synthetic org spends under 10 s, under load about 30 s. 20 s lost to
 * timeouts and crashes: twenty expressions that never end, at the 1 s time limit, with room for a
 * batch and the lone retries of each.
 */
export const DEFAULT_JQ_BUDGET = { totalMs: 300_000, failedMs: 20_000 } as const;

export class JqBudget {
  private spentMs = 0;
  private failedMs = 0;
  readonly totalMs: number;
  readonly failedLimitMs: number;
  readonly now: () => number;

  constructor(options: JqBudgetOptions = {}) {
    this.totalMs = options.totalMs ?? DEFAULT_JQ_BUDGET.totalMs;
    this.failedLimitMs = options.failedMs ?? DEFAULT_JQ_BUDGET.failedMs;
    this.now = options.now ?? Date.now;
  }

  /** Batches that timed out, by the expressions they held, until one of those times out alone. */
  private readonly suspectBatches = new Map<string, Set<{ ms: number; charged: boolean }>>();

  /**
   * Time `work` took, spent from the budget; `failedMs` of it lost to timeouts and crashes. A failed
   * lone request for `expression` also charges the batches it made time out.
   */
  spend(ms: number, failedMs = 0, expression?: string): void {
    this.spentMs += Math.max(0, ms);
    this.failedMs += Math.max(0, failedMs);
    if (failedMs <= 0 || expression === undefined) return;
    for (const batch of this.suspectBatches.get(expression) ?? []) {
      if (!batch.charged) this.failedMs += batch.ms;
      batch.charged = true;
    }
    this.suspectBatches.delete(expression);
  }

  /**
   * A batch of `expressions` ran past its time limit. That is no failure yet: on a slow machine a
   * large batch times out although each of its expressions answers alone at once (the 10x org, at a
   * tenth of the time limit, was left incomplete). Its expressions are then asked alone; only if
   * one of them times out is the batch's time charged as lost (`spend`). Its wall time is spent by
   * the caller as any other.
   */
  batchTimedOut(expressions: readonly string[], ms: number): void {
    const batch = { ms, charged: false };
    for (const expression of expressions) this.suspectBatches.set(expression, (this.suspectBatches.get(expression) ?? new Set()).add(batch));
  }

  /** Why no more jq may run, in words; undefined while there is budget left. */
  spentReason(): string | undefined {
    if (this.failedMs >= this.failedLimitMs) return `expressions that timed out or crashed took ${seconds(this.failedMs)}, the ${seconds(this.failedLimitMs)} this tool gives them in one run`;
    if (this.spentMs >= this.totalMs) return `jq ran for ${seconds(this.spentMs)}, the ${seconds(this.totalMs)} this tool gives it in one run`;
    return undefined;
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
