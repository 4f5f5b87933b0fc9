/**
 * Run the sandbox by hand: `npm run sandbox -- fixtures/demo-org.json [--latency MS]
 * [--rate-limit N/SECONDS] [--no-reset-header] [--no-remaining-header] [--epoch-reset] [--retry-after] [--rolling-window]
 * [--failed-blueprints ID,ID] [--fail-every N] [--token-lifetime SECONDS] [--port N]
 * [--stall PATH] [--trickle PATH] [--loop-pages] [--echo] [--huge-reset PATH=SECONDS]` (hostile.ts).
 * Prints the URL and credentials to point the CLI at; stops after 10 idle minutes or 1 hour.
 */
import { parseArgs } from 'node:util';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import type { HostileOptions } from './hostile.js';
import { startSandbox, type SandboxOptions } from './server.js';
import { plural } from '../../src/plural.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    latency: { type: 'string' },
    'rate-limit': { type: 'string' },
    'no-reset-header': { type: 'boolean' },
    'no-remaining-header': { type: 'boolean' },
    'epoch-reset': { type: 'boolean' },
    'retry-after': { type: 'boolean' },
    'rolling-window': { type: 'boolean' },
    'failed-blueprints': { type: 'string' },
    'fail-every': { type: 'string' },
    'token-lifetime': { type: 'string' },
    port: { type: 'string' },
    stall: { type: 'string' },
    trickle: { type: 'string' },
    'loop-pages': { type: 'boolean' },
    echo: { type: 'boolean' },
    'huge-reset': { type: 'string' },
  },
});

const file = positionals[0];
if (!file) {
  process.stderr.write('usage: npm run sandbox -- SNAPSHOT.json [--latency MS] [--rate-limit N/SECONDS] [--fail-every N]\n');
  process.exit(2);
}

const options: SandboxOptions = { snapshot: await readSnapshotFile(file) };
if (values.latency) options.latencyMs = Number(values.latency);
if (values['fail-every']) options.failEvery = Number(values['fail-every']);
if (values['token-lifetime']) options.tokenLifetimeSeconds = Number(values['token-lifetime']);
if (values.port) options.port = Number(values.port);
if (values['rate-limit']) {
  const [limit, windowSeconds] = values['rate-limit'].split('/').map(Number);
  options.rateLimit = { limit: limit ?? 100, windowSeconds: windowSeconds ?? 60, sendReset: values['no-reset-header'] !== true,
    sendRemaining: values['no-remaining-header'] !== true,
    resetAsEpoch: values['epoch-reset'] === true,
    retryAfter: values['retry-after'] === true,
    rolling: values['rolling-window'] === true,
  };
}
if (values['failed-blueprints']) options.failedBlueprints = values['failed-blueprints'].split(',').filter(Boolean);

const hostile: HostileOptions = {};
if (values.stall) hostile.stallBodyOn = values.stall;
if (values.trickle) hostile.trickleBodyOn = values.trickle;
if (values['loop-pages']) hostile.loopSearchPages = true;
if (values.echo) hostile.echoRequestInErrors = true;
if (values['huge-reset']) {
  const [path = '', seconds = '100000'] = values['huge-reset'].split('=');
  hostile.hugeReset = { path, seconds: Number(seconds) };
}
if (Object.keys(hostile).length > 0) options.hostile = hostile;

const sandbox = await startSandbox(options);
process.stdout.write(
  [
    `sandbox serving ${file} at ${sandbox.url} (stops after 10 idle minutes or 1 hour; Ctrl-C to stop now)`,
    '',
    'try:',
    `  PORT_TOKEN=${sandbox.token} node dist/main.js analyze --api-url ${sandbox.url}`,
    `  PORT_CLIENT_ID=${sandbox.clientId} PORT_CLIENT_SECRET=${sandbox.clientSecret} node dist/main.js snapshot --out org.json --api-url ${sandbox.url}`,
    '',
  ].join('\n'),
);
process.on('SIGINT', () => void sandbox.close());
await sandbox.closed;
const byStatus = new Map<number, number>();
for (const request of sandbox.requests) byStatus.set(request.status, (byStatus.get(request.status) ?? 0) + 1);
process.stdout.write(`sandbox stopped after ${plural(sandbox.requests.length, 'request')}: ${[...byStatus].map(([s, n]) => `${n}× ${s}`).join(', ') || 'none'}\n`);
