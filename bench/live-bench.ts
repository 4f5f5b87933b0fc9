/**
 * `npm run bench:live` (issue 25, Done when): the fetch figures the issue sets, each against its
 * goal, with the sandbox in a child process (bench/sandbox-child.ts) at 50 ms latency:
 * - peak RSS of fetching the 3,000 / 6,000 / 2,000 org: ≤ 400 MB, and (issue 33) its wall time
 *   against its floor (requests × latency / 32 in flight): ≤ 1.2x;
 * - the 1x org (300 / 600 / 200) with 5 % of answers failing with 503 at random: ≤ 1.5× a clean
 *   fetch, median of 3 seeds against the median of 3 clean fetches (`--scale 10`: the
 *   3,000 / 6,000 / 2,000 org, ≤ 1.3×, issue 41);
 * - requests on the 1x org with the migration flag on (so the migration state and the migrations
 *   reads are included): ≤ today's count before issue 25 (867, main at 187ba9d).
 * - (issue 41) `--only floor`: the 1x and the 3,000/6,000/2,000 ("10x") fetch against their floor,
 *   `--runs N` each, medians (goals: 1x ≤ 1.5x, 10x ≤ 1.2x), with each run's load average and, as a
 *   check of the floor itself, a bare loop of as many independent reads at the cap through the same
 *   transport and sandbox. `--start N[,N]` measures other starting concurrencies, in turn per run.
 * Options: --only rss,503,requests,floor  --latency MS  --scale 10 (the 503 figure on the 3,000/6,000/2,000 org)
 *   --runs N  --start N[,N]  --sizes 1x,10x (the floor's orgs)
 */
import { fork } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createApiClient } from '../src/api/client.js';
import { createFetchTransport } from '../src/api/transport.js';
import { MIGRATED_FEATURE_FLAG } from '../src/catalog/migration-state.js';
import { fetchLiveSnapshot } from '../src/sources/live.js';
import { DEFAULT_CONCURRENCY } from '../src/sources/resolve-source.js';
import { START_CONCURRENCY } from '../src/api/adaptive-concurrency.js';
import type { SandboxOptions } from '../test/sandbox/server.js';
import type { SyntheticOrgSize } from './synthetic-org.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'rss,503,requests' }, latency: { type: 'string', default: '50' }, scale: { type: 'string', default: '1' }, runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '1x,10x' }, start: { type: 'string', default: String(START_CONCURRENCY) } } });
const latencyMs = Number(values.latency);
const ONE_X: SyntheticOrgSize = { blueprints: 300, actions: 600, pages: 200 };
const BIG: SyntheticOrgSize = { blueprints: 3_000, actions: 6_000, pages: 2_000 };
/** Requests of the 1x org before issue 25 (bench:fetch on main at 187ba9d: 867 in every run). */
const REQUESTS_BEFORE = 867;
const RSS_GOAL_MB = 400;
const RETRY_GOAL = 1.5;
const RETRY_GOAL_10X = 1.3;
const FLOOR_GOAL = 1.2;
const FLOOR_GOAL_1X = 1.5;

interface Served {
  url: string;
  token: string;
  requests(): Promise<{ requests: number; failed: number }>;
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
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}

async function fetchOnce(served: Served, startConcurrency = START_CONCURRENCY) {
  const client = createApiClient({
    startConcurrency,
    baseUrl: new URL(served.url),
    credentials: { kind: 'token', token: served.token },
    transport: createFetchTransport(),
    now: Date.now,
    sleep: (ms) => delay(ms),
    concurrency: DEFAULT_CONCURRENCY,
  });
  const started = performance.now();
  const snapshot = await fetchLiveSnapshot(client);
  return { seconds: (performance.now() - started) / 1_000, stats: client.stats(), incomplete: snapshot.incomplete?.length ?? 0 };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const only = new Set(values.only.split(','));
process.stdout.write(`live-bench: sandbox in a child process, latency ${latencyMs} ms, concurrency cap ${DEFAULT_CONCURRENCY}\n`);

// First: the process's peak RSS (maxRSS) is its lifetime's, so the largest fetch runs before the others.
if (only.has('rss')) {
  const served = await serve(BIG, {});
  try {
    const result = await fetchOnce(served);
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1_024);
    const floor = (result.stats.requests * latencyMs) / 1_000 / DEFAULT_CONCURRENCY;
    const ratio = result.seconds / floor;
    process.stdout.write(
      `rss       3,000/6,000/2,000 org: ${result.stats.requests} requests in ${result.seconds.toFixed(1)} s, peak RSS ${peakMb} MB of the fetching process (goal ≤ ${RSS_GOAL_MB} MB: ${verdict(peakMb <= RSS_GOAL_MB)}), incomplete ${result.incomplete}\n` +
        `floor     3,000/6,000/2,000 org: ${result.seconds.toFixed(1)} s vs its floor ${floor.toFixed(1)} s (${result.stats.requests} requests × ${latencyMs} ms / ${DEFAULT_CONCURRENCY} in flight): ${ratio.toFixed(2)}x (goal ≤ ${FLOOR_GOAL}x: ${verdict(ratio <= FLOOR_GOAL)})\n`,
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

/**
 * The floor's check: `count` independent reads of the organization at the cap, through the same
 * transport and sandbox, with no order between them (the fetch has some: the lists come first).
 */
async function bareLoop(served: Served, count: number): Promise<number> {
  const transport = createFetchTransport();
  const request = { method: 'GET' as const, url: new URL('/v1/organization', served.url).href, headers: { accept: 'application/json', authorization: `Bearer ${served.token}` } };
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: DEFAULT_CONCURRENCY }, async () => {
      while (left-- > 0) await transport(request);
    }),
  );
  return (performance.now() - started) / 1_000;
}

if (only.has('floor')) {
  const starts = values.start.split(',').map(Number);
  const runs = Number(values.runs);
  const orgs = ([['1x', ONE_X, FLOOR_GOAL_1X], ['10x', BIG, FLOOR_GOAL]] as const).filter(([label]) => values.sizes.split(',').includes(label));
  const ratios = new Map<string, number[]>();
  /** The run against the bare loop just after it: on a loaded machine both slow alike. */
  const bareRatios = new Map<string, number[]>();
  for (let run = 1; run <= runs; run++) {
    for (const [label, size] of orgs) {
      for (const start of starts) {
        const served = await serve(size, {});
        try {
          const load = loadavg()[0]!.toFixed(1);
          const result = await fetchOnce(served, start);
          const floor = (result.stats.requests * latencyMs) / 1_000 / DEFAULT_CONCURRENCY;
          const bare = await bareLoop(served, result.stats.requests);
          const ratio = result.seconds / floor;
          const key = `${label} start ${start}`;
          ratios.set(key, [...(ratios.get(key) ?? []), ratio]);
          bareRatios.set(key, [...(bareRatios.get(key) ?? []), result.seconds / bare]);
          process.stdout.write(
            `  ${key} run ${run}: ${result.seconds.toFixed(2)} s, ${result.stats.requests} requests, ${ratio.toFixed(2)}x the floor ${floor.toFixed(2)} s; ` +
              `bare loop ${bare.toFixed(2)} s (${(bare / floor).toFixed(2)}x); load ${load}, retries ${result.stats.retries}, incomplete ${result.incomplete}\n`,
          );
        } finally {
          await served.close();
        }
      }
    }
  }
  for (const [label, , goal] of orgs) {
    for (const start of starts) {
      const list = ratios.get(`${label} start ${start}`) ?? [];
      const ratio = median(list);
      const bare = median(bareRatios.get(`${label} start ${start}`) ?? []);
      process.stdout.write(
        `floor     ${label} org, start ${start}: median ${ratio.toFixed(2)}x its floor (${list.map((r) => r.toFixed(2)).join(', ')}; goal ≤ ${goal}x: ${verdict(ratio <= goal)}); ` +
          `median ${bare.toFixed(2)}x the bare loop\n`,
      );
    }
  }
}

if (only.has('requests')) {
  const served = await serve(ONE_X, {}, [MIGRATED_FEATURE_FLAG]);
  try {
    const result = await fetchOnce(served);
    const migrations = result.stats.requests; // all counted by the client, the reads of issue 25 included
    process.stdout.write(
      `requests  1x org with ${MIGRATED_FEATURE_FLAG} on: ${migrations} requests (before issue 25: ${REQUESTS_BEFORE}; goal ≤ it: ${verdict(migrations <= REQUESTS_BEFORE)}), incomplete ${result.incomplete}\n`,
    );
  } finally {
    await served.close();
  }
}
