/**
 * `npm run bench`: fetch a synthetic org (2,000 blueprints, 5,000 actions, 1,000 pages) from the
 * sandbox with 50 ms latency per request, at the default concurrency and one request at a time.
 * Options: --blueprints N --actions N --pages N --latency MS --concurrency 4,1
 */
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { createApiClient } from '../src/api/client.js';
import { createFetchTransport } from '../src/api/transport.js';
import { fetchLiveSnapshot } from '../src/sources/live.js';
import { DEFAULT_CONCURRENCY } from '../src/sources/resolve-source.js';
import { startSandbox } from '../test/sandbox/server.js';
import { generateSyntheticOrg } from './synthetic-org.js';

const { values } = parseArgs({
  options: {
    blueprints: { type: 'string', default: '2000' },
    actions: { type: 'string', default: '5000' },
    pages: { type: 'string', default: '1000' },
    latency: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: `${DEFAULT_CONCURRENCY},1` },
  },
});

const size = { blueprints: Number(values.blueprints), actions: Number(values.actions), pages: Number(values.pages) };
const latencyMs = Number(values.latency);
const org = generateSyntheticOrg(size);
process.stdout.write(`synthetic org: ${size.blueprints} blueprints, ${size.actions} actions, ${size.pages} pages; sandbox latency ${latencyMs} ms\n`);

for (const concurrency of values.concurrency.split(',').map(Number)) {
  const sandbox = await startSandbox({ snapshot: org, latencyMs, maxLifetimeMs: 2 * 60 * 60_000 });
  try {
    const client = createApiClient({
      baseUrl: new URL(sandbox.url),
      credentials: { kind: 'token', token: sandbox.token },
      transport: createFetchTransport(),
      now: Date.now,
      sleep: (ms) => delay(ms),
      concurrency,
    });
    const started = performance.now();
    const snapshot = await fetchLiveSnapshot(client);
    const seconds = (performance.now() - started) / 1_000;
    const stats = client.stats();
    const searches = sandbox.requests.filter((r) => r.path.endsWith('/entities/search')).length;
    process.stdout.write(
      `concurrency ${String(concurrency).padStart(2)}: ${stats.requests} requests (${searches} entity searches), ` +
        `${seconds.toFixed(1)} s wall, ${(stats.requests / seconds).toFixed(1)} req/s, incomplete ${snapshot.incomplete?.length ?? 0}\n`,
    );
  } finally {
    await sandbox.close();
  }
}
