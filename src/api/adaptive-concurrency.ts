/**
 * How many requests may be in flight, learned from the answers (issue 17): start at the cap (see
 * START_CONCURRENCY), double while latency holds after a cut (then grow by one per round), halve on a burst of 5xx,
 * never above the cap (`--concurrency`). A 429 is no sign of load: the client waits it out per
 * request class and then lets every waiting request use the restored budget at once; halving here
 * serialised those retries behind one slot (issue 23 item 7). Pure state, no clock: the client
 * reports each answer's latency and status.
 */
interface ConcurrencyController {
  current(): number;
  /** One answer: its latency, and its HTTP status or undefined for a network failure. */
  onAnswer(latencyMs: number, status: number | undefined): void;
}

/**
 * Ours, decided by measurement (issue 41; CONTRIBUTING.md, "The fetch's starting concurrency"):
 * the cap itself. Started at 4, the 1x fetch took longer than started at 32 in 7 of 9 pairs run in
 * turn (median 1.13x; 3 of 4 pairs at 200 ms latency), and the 10x one was neither faster nor slower
 * beyond the noise (the ramp is three or four round trips of a 15 s read). Starting high
 * risks nothing a start at 4 protects: before the first answer only the handful of list reads
 * exist (the thousands of permission reads wait for the lists, whose answers carry the rate-limit
 * headers that pace everything after), a burst of 5xx still halves, and a 429 is waited out.
 */
export const START_CONCURRENCY = 32;
/** Ours: latency "holds" while it stays under twice the best seen (plus a little for timer noise). */
const LATENCY_FACTOR = 2;
const LATENCY_SLACK_MS = 20;
/**
 * Ours: a burst is this many 5xx or network failures among the last `BURST_WINDOW` answers, 40 %.
 * Scattered failures are not load, and a cut costs far more than the requests it answers (half
 * the slots, won back one per round): at 5 % of answers failing at random, 3 in 20 cut a run of
 * 900 answers several times over; 6 in 20 (issue 33's value) still cut half of the 10x fetches
 * (about 9,000 answers; 2,000 simulated runs each), 8 in 20 cuts 0.6 % of them. A service
 * failing under load fails more than that: at half of its answers, 8 in 20 come within about 16.
 */
const BURST_FAILURES = 8;
const BURST_WINDOW = 20;

export function createConcurrencyController(cap: number, start = START_CONCURRENCY): ConcurrencyController {
  if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`concurrency must be a positive integer, got ${cap}`);
  let limit = Math.min(cap, start);
  let bestLatency = Number.POSITIVE_INFINITY;
  /** Good answers since the last change: a round is `limit` of them. */
  let good = 0;
  let slowStart = true;
  /** Answers to ignore before the next cut: those already in flight when the last cut was made. */
  let cooldown = 0;
  const recent: boolean[] = [];

  const cut = () => {
    if (cooldown > 0) return;
    limit = Math.max(1, Math.floor(limit / 2));
    slowStart = false;
    good = 0;
    cooldown = limit * 2;
    recent.length = 0;
  };

  return {
    current: () => limit,
    onAnswer(latencyMs, status) {
      if (cooldown > 0) cooldown--;
      const failed = status === undefined || status >= 500;
      recent.push(failed);
      if (recent.length > BURST_WINDOW) recent.shift();
      if (status === 429) return; // neither load nor a good answer: the rate limit is paced elsewhere
      if (failed) {
        if (recent.filter(Boolean).length >= BURST_FAILURES) cut();
        return;
      }
      bestLatency = Math.min(bestLatency, latencyMs);
      if (latencyMs > bestLatency * LATENCY_FACTOR + LATENCY_SLACK_MS) {
        good = 0; // latency grew: hold here
        return;
      }
      if (++good < limit) return;
      good = 0;
      limit = Math.min(cap, slowStart ? limit * 2 : limit + 1);
    },
  };
}
