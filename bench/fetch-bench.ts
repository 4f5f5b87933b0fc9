/**
 * `npm run bench:fetch`: fetch the synthetic org from the sandbox at 50 ms latency per request and
 * print, per scenario: requests, wall time, most requests in flight, 429s, and the ratio to the
 * floor. Without a rate limit or failures (issue 41) the floor is measured: the fetch's own
 * requests replayed against the same sandbox at the cap, by no client (bench/replay-floor.ts;
 * requests × latency / cap, printed beside it, is below what even the replay takes; with failures
 * it stays the floor, as a replay would skip the spec's backoff). With a limit, it is the start of
 * the last window the requests need plus one round trip, since each window's budget can go at its
 * start: the sandbox's windows are fixed (epoch-aligned), so the run's first one ends `phase` after
 * its start, and the floor is phase + (⌈requests / limit⌉ − 2) × window + latency (requests /
 * rate, the floor before issue 41, was no floor: runs beat it, 0.87–0.97x). The sandbox runs in
 * this process: its work shares the client's thread (bench:live serves from a child process).
 * Scenarios: 1x (300 blueprints, 600 actions, 200 pages) and 10x (2,000 / 5,000 / 1,000), each
 * without a limit and with 100 requests per 10 s; 1x with a 503 on every 20th request (5 %).
 * Options: --only NAME[,NAME] (e.g. 1x,1x-limit,1x-503,10x,10x-limit) --latency MS --concurrency N
 * --limit N/SECONDS (100/10 by default)
 */
import { parseArgs } from 'node:util';
import { fetchLiveSnapshot } from '../src/sources/live.js';
import { DEFAULT_CONCURRENCY } from '../src/sources/resolve-source.js';
import { startSandbox, type SandboxOptions } from '../test/sandbox/server.js';
import { generateSyntheticOrg, type SyntheticOrgSize } from './synthetic-org.js';
import { sandboxClient } from '../test/sandbox/sandbox-client.js';
import { createFetchTransport, type TransportRequest } from '../src/api/transport.js';
import { recording, replay } from './replay-floor.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: '1x,1x-limit,1x-503,10x,10x-limit' },
    latency: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: String(DEFAULT_CONCURRENCY) },
    limit: { type: 'string', default: '100/10' },
  },
});

const ORGS: Record<string, SyntheticOrgSize> = {
  '1x': { blueprints: 300, actions: 600, pages: 200 },
  '10x': { blueprints: 2_000, actions: 5_000, pages: 1_000 },
};
const [limitCount = 100, limitSeconds = 10] = values.limit.split('/').map(Number);
const LIMIT = { limit: limitCount, windowSeconds: limitSeconds };
const SCENARIOS: Record<string, { org: string; sandbox: Partial<SandboxOptions> }> = {
  '1x': { org: '1x', sandbox: {} },
  '1x-limit': { org: '1x', sandbox: { rateLimit: LIMIT } },
  '1x-503': { org: '1x', sandbox: { failEvery: 20 } },
  '10x': { org: '10x', sandbox: {} },
  '10x-limit': { org: '10x', sandbox: { rateLimit: LIMIT } },
};

const latencyMs = Number(values.latency);
const cap = Number(values.concurrency);
process.stdout.write(`sandbox latency ${latencyMs} ms, concurrency cap ${cap}\n`);

for (const name of values.only.split(',')) {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}: one of ${Object.keys(SCENARIOS).join(', ')}`);
  const org = generateSyntheticOrg(ORGS[scenario.org] as SyntheticOrgSize);
  const sandbox = await startSandbox({ snapshot: org, latencyMs, maxLifetimeMs: 60 * 60_000, ...scenario.sandbox });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const sent: TransportRequest[] = [];
    const client = sandboxClient(sandbox, { concurrency: cap, transport: recording(createFetchTransport(), sent) });
    const started = performance.now();
    /** Seconds until the sandbox's first fixed window ends (its clock is this process's). */
    const phase = LIMIT.windowSeconds - (Date.now() / 1_000) % LIMIT.windowSeconds;
    const snapshot = await fetchLiveSnapshot(client);
    const seconds = (performance.now() - started) / 1_000;
    const stats = client.stats();
    const tooMany = sandbox.requests.filter((r) => r.status === 429).length;
    const windows = Math.ceil(stats.requests / LIMIT.limit);
    const computed = (stats.requests * latencyMs) / 1_000 / cap;
    // The same requests, replayed on the same sandbox (a limited one would answer them 429 now).
    const limited = scenario.sandbox.rateLimit !== undefined;
    // With failures a replay would skip the backoff the spec asks of every client: computed there (bench:live compares with a clean run).
    const failing = scenario.sandbox.failEvery !== undefined;
    const floor = limited ? (windows < 2 ? 0 : phase + (windows - 2) * LIMIT.windowSeconds) + latencyMs / 1_000 : failing ? computed : await replay(sent, cap);
    const how = limited ? 'last window' : failing ? 'computed' : `replayed; computed ${computed.toFixed(1)} s`;
    process.stdout.write(
      `${name.padEnd(9)} ${String(stats.requests).padStart(5)} requests, ${seconds.toFixed(1).padStart(6)} s, max in flight ${String(stats.maxInFlight).padStart(2)}, ` +
        `429s ${tooMany}, ${(seconds / floor).toFixed(2)}x the floor (${floor.toFixed(1)} s, ${how}), retries ${stats.retries}, ` +
        `peak RSS ${Math.round(peakRss / 1_048_576)} MB (sandbox included), incomplete ${snapshot.incomplete?.length ?? 0}\n`,
    );
  } finally {
    clearInterval(sampler);
    await sandbox.close();
  }
}
