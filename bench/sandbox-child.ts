/**
 * The sandbox in a process of its own for bench/live-bench.ts, so the fetch's peak memory is the
 * fetch's alone. Reads `{size, flag, sandbox}` from argv[2] (JSON), serves the synthetic org,
 * sends `{url, token}` to the parent, answers `requests` with the count of requests it served
 * (and `kinds` with that count per kind of request: method and path, identifiers cut out), and
 * exits on `close`.
 */
import { startSandbox, type LoggedRequest, type SandboxOptions } from '../test/sandbox/server.js';
import { generateSyntheticOrg, type SyntheticOrgSize } from './synthetic-org.js';

/** `GET /v1/actions/{id}/permissions`: one kind for every action; the lists keep their own path. */
function requestKinds(requests: readonly LoggedRequest[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const { method, path } of requests) {
    const kind = `${method} ${path.replace(/\?.*/, '').replace(/^\/v1\/(blueprints|actions|pages)\/[^/]+\//, '/v1/$1/{id}/')}`;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

const { size, flags, sandbox: options } = JSON.parse(process.argv[2] ?? '{}') as { size: SyntheticOrgSize; flags?: string[]; sandbox: Partial<SandboxOptions> };
const org = generateSyntheticOrg(size);
if (flags) org.organization = { ...org.organization, featureFlags: flags };
const sandbox = await startSandbox({ snapshot: org, maxLifetimeMs: 60 * 60_000, ...options });
process.on('message', (message) => {
  if (message === 'requests') process.send?.({ requests: sandbox.requests.length, failed: sandbox.requests.filter((r) => r.status >= 500).length });
  if (message === 'kinds') process.send?.(requestKinds(sandbox.requests));
  if (message === 'close') void sandbox.close().then(() => process.exit(0));
});
process.send?.({ url: sandbox.url, token: sandbox.token });
