/**
 * The sandbox in a process of its own for bench/live-bench.ts, so the fetch's peak memory is the
 * fetch's alone. Reads `{size, flag, sandbox}` from argv[2] (JSON), serves the synthetic org,
 * sends `{url, token}` to the parent, answers `requests` with the count of requests it served,
 * and exits on `close`.
 */
import { startSandbox, type SandboxOptions } from '../test/sandbox/server.js';
import { generateSyntheticOrg, type SyntheticOrgSize } from './synthetic-org.js';

const { size, flags, sandbox: options } = JSON.parse(process.argv[2] ?? '{}') as { size: SyntheticOrgSize; flags?: string[]; sandbox: Partial<SandboxOptions> };
const org = generateSyntheticOrg(size);
if (flags) org.organization = { ...org.organization, featureFlags: flags };
const sandbox = await startSandbox({ snapshot: org, maxLifetimeMs: 60 * 60_000, ...options });
process.on('message', (message) => {
  if (message === 'requests') process.send?.({ requests: sandbox.requests.length, failed: sandbox.requests.filter((r) => r.status >= 500).length });
  if (message === 'close') void sandbox.close().then(() => process.exit(0));
});
process.send?.({ url: sandbox.url, token: sandbox.token });
