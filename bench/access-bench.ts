/**
 * `npm run bench:access`: report.access for 2,000 users × 5,000 actions (issue 14), time and
 * memory of the access computation alone (the rules run before it, untimed). Three orgs:
 * - the synthetic org as generated (explicit team lists, `.results` policies that are
 *   undecidable, `.user.team` visibility on some inputs: few distinct expressions);
 * - every action gated by its own distinct `.user.team` condition (one expression each; `.user.teams`
 *   holds `{name}` objects, titles before and after, so a string comparison on it never flips);
 * - the same, but each condition also reads `.user.email`, so every user is a context of its own.
 * Options: --users N --actions N
 */
import { parseArgs } from 'node:util';
import { computeAccess } from '../src/access/compute-access.js';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import { generateSyntheticOrg, syntheticUsers, withDistinctConditions } from './synthetic-org.js';

const { values } = parseArgs({ options: { users: { type: 'string', default: '2000' }, actions: { type: 'string', default: '5000' } } });
const userCount = Number(values.users);
const actionCount = Number(values.actions);

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const jq = await loadJqEngine();
const base = generateSyntheticOrg({ blueprints: 2000, actions: actionCount, pages: 1000 });
const users = syntheticUsers(base, userCount);
for (const [label, org] of [
  ['synthetic org as generated', base],
  ['a distinct .user.team condition per action', withDistinctConditions(base, false)],
  ['a distinct condition per action that also reads .user.email', withDistinctConditions(base, true)],
] as const) {
  // Findings first, without users (so access is not computed there and jq's cache holds none of it).
  const findings = analyze(buildCatalog(org, { jq })).findings;
  const catalog = buildCatalog({ ...org, users }, { jq });
  const distinct = new Set(users.map((user) => JSON.stringify(user.teams))).size;
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const access = computeAccess(catalog, findings) ?? [];
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  const memory = process.memoryUsage();
  const loses = access.reduce((n, e) => n + (e.loses?.length ?? 0), 0);
  const gains = access.reduce((n, e) => n + (e.gains?.length ?? 0), 0);
  const undecidable = access.filter((e) => e.undecidable !== undefined).length;
  process.stdout.write(
    `access: ${userCount} users (${distinct} distinct team lists) × ${actionCount} actions, ${label}: ${access.length} changed permissions ` +
      `(${loses} losses, ${gains} gains, ${undecidable} undecidable) in ${elapsed.toFixed(0)} ms; ` +
      `heap +${mib(memory.heapUsed - heapBefore)} (used ${mib(memory.heapUsed)}), rss ${mib(memory.rss)}\n`,
  );
}
await jq.close?.();
