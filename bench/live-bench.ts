/**
 * `npm run bench:live` (issue 25, Done when): the fetch figures the issue sets, each against its
 * goal, with the sandbox in a child process (bench/sandbox-child.ts) at 50 ms latency:
 * - peak RSS of fetching the 3,000 / 6,000 / 2,000 org: ≤ 400 MB, and (issue 33) its wall time
 *   against its floor (requests × latency / 32 in flight): ≤ 1.2x;
 * - the 1x org (300 / 600 / 200) with 5 % of answers failing with 503 at random: ≤ 1.5× a clean
 *   fetch, median of 3 seeds against the median of 3 clean fetches (`--scale 10`: the
 *   3,000 / 6,000 / 2,000 org, ≤ 1.3×, issue 41);
 * - requests on the 1x org with the migration flag on (so the migration state and the migrations
 *   reads are included), by kind: ≤ the reads that org needs (issue 41, bench/request-floor.ts:
 *   counted from the org by what the API offers, 1,078 for this org). Before issue 41 the goal was
 *   867, the count when every `$team` sample was one search across blueprints; that search takes
 *   its query as the body and has no paging nor page size, so it is no read a bounded client can
 *   make, and each sampled blueprint is a request of its own (docs/live-service.md).
 * - (issue 41) `--only floor`: the 1x and the 3,000/6,000/2,000 ("10x") fetch against their floor,
 *   `--runs N` pairs each, median of the pairs' ratios (goals: 1x ≤ 1.5x, 10x ≤ 1.2x). The floor is
 *   measured, not computed: the very requests the fetch sent (recorded at its transport), replayed
 *   against the same sandbox with nothing between them (no order, no parsing, no client), at the
 *   cap in flight; fetch and replay are taken in turn (their order alternating), so the load of a
 *   shared machine hits both. Also printed: requests × latency / cap (below what even the replay
 *   takes: each answer costs the sandbox's and the socket's time beside the latency), and the
 *   same replay at 256 in flight, what a client free of our bound on requests in flight takes.
 *   `--start N[,N]` measures other starting concurrencies, each paired with a replay.
 * - (issue 41) `--only command`: the live run as a user runs it, `analyze --api-url` as a process of
 *   its own (fetch, analysis, reports), against its floor: the replay above plus `analyze --snapshot`
 *   of the snapshot the same sandbox gives (recorded once with `snapshot`), so only the fetch
 *   differs; in turn, `--runs N` pairs, median ratio (goal: the fetch's, 1x ≤ 1.5x, 10x ≤ 1.2x).
 * Options: --only rss,503,requests,floor,command  --latency MS  --scale 10 (the 503 figure on the 3,000/6,000/2,000 org)
 *   --runs N  --start N[,N]  --sizes 1x,10x (the floor's and the command's orgs)
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient } from '../src/api/client.js';
import { createFetchTransport, type TransportRequest } from '../src/api/transport.js';
import { MIGRATED_FEATURE_FLAG } from '../src/catalog/migration-state.js';
import { fetchLiveSnapshot } from '../src/sources/live.js';
import { DEFAULT_CONCURRENCY } from '../src/sources/resolve-source.js';
import { START_CONCURRENCY } from '../src/api/adaptive-concurrency.js';
import type { SandboxOptions } from '../test/sandbox/server.js';
import { CLI, runAnalyze, runNode, type ProcessFigures } from './whole-process.js';
import { recording, replay } from './replay-floor.js';
import { requestFloor } from './request-floor.js';
import { generateSyntheticOrg, type SyntheticOrgSize } from './synthetic-org.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'rss,503,requests' }, latency: { type: 'string', default: '50' }, scale: { type: 'string', default: '1' }, runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '1x,10x' }, start: { type: 'string', default: String(START_CONCURRENCY) } } });
const latencyMs = Number(values.latency);
const ONE_X: SyntheticOrgSize = { blueprints: 300, actions: 600, pages: 200 };
const BIG: SyntheticOrgSize = { blueprints: 3_000, actions: 6_000, pages: 2_000 };
/** Requests of the 1x org when the `$team` samples were one search across blueprints (issue 25, before the per-blueprint searches). */
const REQUESTS_ACROSS_BLUEPRINTS = 867;
const RSS_GOAL_MB = 400;
const RETRY_GOAL = 1.5;
const RETRY_GOAL_10X = 1.3;
const FLOOR_GOAL = 1.2;
const FLOOR_GOAL_1X = 1.5;

interface Served {
  url: string;
  token: string;
  requests(): Promise<{ requests: number; failed: number }>;
  /** Requests served, per method and path with identifiers cut out (bench/sandbox-child.ts). */
  kinds(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

async function serve(size: SyntheticOrgSize, sandbox: Partial<SandboxOptions>, flags?: string[]): Promise<Served> {
  const child = fork(new URL('./sandbox-child.js', import.meta.url), [JSON.stringify({ size, flags, sandbox: { latencyMs, ...sandbox } })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(message?: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      if (message) child.send(message);
    });
  const { url, token } = await ask<{ url: string; token: string }>();
  return {
    url,
    token,
    requests: () => ask('requests'),
    kinds: () => ask('kinds'),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}

/** `sent`: every request the fetch sent, in the order sent, for the replay that is its floor. */
async function fetchOnce(served: Served, startConcurrency = START_CONCURRENCY, sent?: TransportRequest[]) {
  const transport = createFetchTransport();
  const client = createApiClient({
    startConcurrency,
    baseUrl: new URL(served.url),
    credentials: { kind: 'token', token: served.token },
    transport: sent ? recording(transport, sent) : transport,
    now: Date.now,
    sleep: (ms) => delay(ms),
    concurrency: DEFAULT_CONCURRENCY,
  });
  const started = performance.now();
  const snapshot = await fetchLiveSnapshot(client);
  return { seconds: (performance.now() - started) / 1_000, stats: client.stats(), incomplete: snapshot.incomplete?.length ?? 0 };
}

/**
 * "No cap": eight times ours. The sandbox bounds nothing, so a client may send all at once; far
 * more would meet the server's listen backlog, where a dropped connection costs a second.
 */
const UNCAPPED = 256;
const spread = (list: readonly number[]) => `${Math.min(...list).toFixed(2)}–${Math.max(...list).toFixed(2)}`;

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const only = new Set(values.only.split(','));
process.stdout.write(`live-bench: sandbox in a child process, latency ${latencyMs} ms, concurrency cap ${DEFAULT_CONCURRENCY}\n`);

// First: the process's peak RSS (maxRSS) is its lifetime's, so the largest fetch runs before the others.
if (only.has('rss')) {
  const served = await serve(BIG, {});
  try {
    const sent: TransportRequest[] = [];
    const result = await fetchOnce(served, START_CONCURRENCY, sent);
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1_024);
    // One run, taken after the fetch: `--only floor` takes pairs in turn, the figure to quote.
    const floor = await replay(sent, DEFAULT_CONCURRENCY);
    const ratio = result.seconds / floor;
    process.stdout.write(
      `rss       3,000/6,000/2,000 org: ${result.stats.requests} requests in ${result.seconds.toFixed(1)} s, peak RSS ${peakMb} MB of the fetching process (goal ≤ ${RSS_GOAL_MB} MB: ${verdict(peakMb <= RSS_GOAL_MB)}), incomplete ${result.incomplete}\n` +
        `floor     3,000/6,000/2,000 org, one run: ${result.seconds.toFixed(1)} s vs its floor ${floor.toFixed(1)} s (the same ${sent.length} requests replayed, ${DEFAULT_CONCURRENCY} in flight): ${ratio.toFixed(2)}x (goal ≤ ${FLOOR_GOAL}x: ${verdict(ratio <= FLOOR_GOAL)}; pairs in turn: --only floor)\n`,
    );
  } finally {
    await served.close();
  }
}

if (only.has('503')) {
  const scale = values.scale === '10' ? BIG : ONE_X;
  const label = values.scale === '10' ? '10x' : '1x';
  const clean: number[] = [];
  const failing: number[] = [];
  for (const seed of [1, 2, 3]) {
    for (const [list, sandbox] of [
      [clean, {}],
      [failing, { failRandomly: { rate: 0.05, seed } }],
    ] as const) {
      const served = await serve(scale, sandbox);
      try {
        const result = await fetchOnce(served);
        list.push(result.seconds);
        const { failed } = await served.requests();
        process.stdout.write(`  ${label} ${'failRandomly' in sandbox ? `5 % 503 (seed ${seed})` : 'clean'}: ${result.seconds.toFixed(2)} s, ${result.stats.requests} requests, ${failed} answered 503, retries ${result.stats.retries}, incomplete ${result.incomplete}\n`);
      } finally {
        await served.close();
      }
    }
  }
  const ratio = median(failing) / median(clean);
  // Issue 41 sets the 10x org's goal (1.3x); the 1x one is issue 25's, which the spec's backoff cannot meet (docs/live-service.md).
  const goal = values.scale === '10' ? RETRY_GOAL_10X : RETRY_GOAL;
  process.stdout.write(`503       ${label} with 5 % 503s ${median(failing).toFixed(2)} s vs clean ${median(clean).toFixed(2)} s (medians of 3): ${ratio.toFixed(2)}x (goal ≤ ${goal}x: ${verdict(ratio <= goal)})\n`);
}

/** A fetch and its floor, in the order given (alternated by the caller so load falls on both alike). */
async function pair<A, B>(first: boolean, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (first) {
    const x = await a();
    return [x, await b()];
  }
  const y = await b();
  return [await a(), y];
}

if (only.has('floor')) {
  const starts = values.start.split(',').map(Number);
  const runs = Number(values.runs);
  const orgs = ([['1x', ONE_X, FLOOR_GOAL_1X], ['10x', BIG, FLOOR_GOAL]] as const).filter(([label]) => values.sizes.split(',').includes(label));
  for (const [label, size, goal] of orgs) {
    // One sandbox per org: without a rate limit or failures it keeps no state a run could change.
    const served = await serve(size, {});
    try {
      // The requests the org needs, as the fetch sends them (a warm-up of both processes as well).
      const sent: TransportRequest[] = [];
      const first = await fetchOnce(served, START_CONCURRENCY, sent);
      if (first.stats.retries > 0 || first.incomplete > 0) throw new Error(`${label}: the recorded fetch retried or left gaps; its requests are no floor`);
      const computed = (sent.length * latencyMs) / 1_000 / DEFAULT_CONCURRENCY;
      const uncapped = await replay(sent, UNCAPPED);
      process.stdout.write(
        `  ${label}: ${sent.length} requests; computed ${computed.toFixed(2)} s (× ${latencyMs} ms / ${DEFAULT_CONCURRENCY}); ` +
          `replayed at ${UNCAPPED} in flight ${uncapped.toFixed(2)} s (what a client free of our bound of ${DEFAULT_CONCURRENCY} takes)\n`,
      );
      for (const start of starts) {
        const ratios: number[] = [];
        const floors: number[] = [];
        const fetches: number[] = [];
        for (let run = 1; run <= runs; run++) {
          const load = loadavg()[0]!.toFixed(1);
          const [result, floor] = await pair(run % 2 === 1, () => fetchOnce(served, start), () => replay(sent, DEFAULT_CONCURRENCY));
          ratios.push(result.seconds / floor);
          floors.push(floor);
          fetches.push(result.seconds);
          process.stdout.write(
            `  ${label} start ${start} pair ${run} (${run % 2 === 1 ? 'fetch first' : 'replay first'}): fetch ${result.seconds.toFixed(2)} s, ${result.stats.requests} requests; ` +
              `replay ${floor.toFixed(2)} s (${(floor / computed).toFixed(2)}x computed); ${(result.seconds / floor).toFixed(2)}x; load ${load}, retries ${result.stats.retries}, incomplete ${result.incomplete}\n`,
          );
        }
        const ratio = median(ratios);
        process.stdout.write(
          `floor     ${label} org, start ${start}: fetch ${spread(fetches)} s, floor (replay at ${DEFAULT_CONCURRENCY}) ${spread(floors)} s; median ratio ${ratio.toFixed(2)}x of ${runs} pairs ` +
            `(${ratios.map((r) => r.toFixed(2)).join(', ')}; goal ≤ ${goal}x: ${verdict(ratio <= goal)}); median ${(median(fetches) / computed).toFixed(2)}x computed, ${(median(fetches) / uncapped).toFixed(1)}x the replay at ${UNCAPPED}\n`,
        );
      }
    } finally {
      await served.close();
    }
  }
}

if (only.has('command')) {
  const runs = Number(values.runs);
  const orgs = ([['1x', ONE_X, FLOOR_GOAL_1X], ['10x', BIG, FLOOR_GOAL]] as const).filter(([label]) => values.sizes.split(',').includes(label));
  const dir = await mkdtemp(join(tmpdir(), 'live-bench-'));
  try {
    for (const [label, size, goal] of orgs) {
      const served = await serve(size, {});
      try {
        const sent: TransportRequest[] = [];
        await fetchOnce(served, START_CONCURRENCY, sent);
        const apiUrl = ['--api-url', served.url, '--no-color', '-q'];
        const withToken = <T>(run: () => T): T => {
          process.env.PORT_TOKEN = served.token;
          try {
            return run();
          } finally {
            delete process.env.PORT_TOKEN;
          }
        };
        // The snapshot the live run analyzes, as `snapshot` records it from the same sandbox.
        const snapshotFile = join(dir, `${label}.json`);
        const recorded = withToken(() => runNode(CLI, ['snapshot', ...apiUrl, '--out', snapshotFile]));
        if (recorded.status !== 0) throw new Error(`snapshot of the ${label} org exited ${recorded.status}: ${recorded.stderr.split('\n')[0]}`);
        const live = () => withToken(() => runAnalyze([...apiUrl, '--out', join(dir, `${label}-live`)]));
        const offline = () => runAnalyze(['--snapshot', snapshotFile, '--no-color', '-q', '--out', join(dir, `${label}-offline`)]);
        const ratios: number[] = [];
        const lives: number[] = [];
        const floors: number[] = [];
        for (let run = 1; run <= runs; run++) {
          const load = loadavg()[0]!.toFixed(1);
          const floorOf = async (): Promise<[number, ProcessFigures]> => [await replay(sent, DEFAULT_CONCURRENCY), offline()];
          const [ran, [replayed, analysis]] = await pair(run % 2 === 1, async () => live(), floorOf);
          const floor = replayed + analysis.wallMs / 1_000;
          const seconds = ran.wallMs / 1_000;
          ratios.push(seconds / floor);
          lives.push(seconds);
          floors.push(floor);
          process.stdout.write(
            `  ${label} command pair ${run}: analyze --api-url ${seconds.toFixed(2)} s (exit ${ran.status}, ${Math.round(ran.peakMb)} MB); floor ${floor.toFixed(2)} s = replay ${replayed.toFixed(2)} s + analyze --snapshot ${(analysis.wallMs / 1_000).toFixed(2)} s; ${(seconds / floor).toFixed(2)}x; load ${load}\n`,
          );
        }
        const ratio = median(ratios);
        process.stdout.write(
          `command   ${label} org, the live run as a process: ${spread(lives)} s against its floor ${spread(floors)} s (replay + analyze --snapshot of the same org); median ratio ${ratio.toFixed(2)}x of ${runs} pairs (${ratios.map((r) => r.toFixed(2)).join(', ')}; goal ≤ ${goal}x: ${verdict(ratio <= goal)})\n`,
        );
      } finally {
        await served.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (only.has('requests')) {
  const served = await serve(ONE_X, {}, [MIGRATED_FEATURE_FLAG]);
  try {
    const result = await fetchOnce(served);
    const sent = result.stats.requests; // all counted by the client, the reads of issue 25 included
    const floor = requestFloor(generateSyntheticOrg(ONE_X), true);
    const kinds = Object.entries(await served.kinds()).sort(([, a], [, b]) => b - a);
    process.stdout.write(
      `requests  1x org with ${MIGRATED_FEATURE_FLAG} on: ${sent} requests (goal ≤ the ${floor.total} reads this org needs: ${verdict(sent <= floor.total)}), incomplete ${result.incomplete}\n` +
        `  sent: ${kinds.map(([kind, count]) => `${count} ${kind}`).join('; ')}\n` +
        `  needed (bench/request-floor.ts): ${floor.parts.map(([what, count]) => `${count} ${what}`).join('; ')}\n` +
        `  (${REQUESTS_ACROSS_BLUEPRINTS} when the $team samples were one search across blueprints, which does not page)\n`,
    );
  } finally {
    await served.close();
  }
}
