/**
 * `npm run bench:access` (issue 33): the analysis of an org with 2,000 users × 5,000 actions
 * (report.access included) against the same org without users, as a ratio measured in the same
 * run, each on a fresh jq engine. Goal: at most 5x where every action has its own condition on the
 * user's teams. Three orgs:
 * - `generated`: the synthetic org as generated (explicit team lists, `.results` policies that are
 *   undecidable, `.user.team` visibility on some inputs: few distinct expressions);
 * - `team`: every action gated by its own distinct `.user.team` condition (one expression each;
 *   `.user.teams` holds `{name}` objects, titles before and after, so a string comparison on it
 *   never flips) — the figure the goal is set on;
 * - `email`: the same, but each condition also reads `.user.email`, so every user is a context of its own.
 * Also printed: the time the main thread spent waiting for jq, and jq's requests.
 * Options: --users N --actions N --only generated,team,email --workers N (jq workers; one per core by default)
 */
import { parseArgs } from 'node:util';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import { jqPoolSize } from '../src/jq/worker-pool.js';
import type { OrgSnapshot } from '../src/model/snapshot.js';
import { generateSyntheticOrg, syntheticUsers, withDistinctConditions } from './synthetic-org.js';
import { timed } from './timed-engine.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '2000' },
    actions: { type: 'string', default: '5000' },
    only: { type: 'string', default: 'generated,team,email' },
    workers: { type: 'string', default: String(jqPoolSize()) },
  },
});
const userCount = Number(values.users);
const actionCount = Number(values.actions);
const workers = Number(values.workers);
const GOAL = 5;

/** One analysis on a fresh engine: wall time, time waiting for jq, jq requests, and the report. */
async function analysis(org: OrgSnapshot) {
  const jq = await loadJqEngine({ workers });
  try {
    const { engine, waitedMs, workersCpuMs } = timed(jq);
    const started = performance.now();
    const report = analyze(buildCatalog(org, { jq: engine }));
    return { ms: performance.now() - started, jqMs: waitedMs(), jqCpuMs: workersCpuMs(), requests: jq.requests?.() ?? 0, report };
  } finally {
    await jq.close?.();
  }
}

const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
const base = generateSyntheticOrg({ blueprints: 2000, actions: actionCount, pages: 1000 });
const users = syntheticUsers(base, userCount);
const distinct = new Set(users.map((user) => JSON.stringify(user.teams))).size;
process.stdout.write(`access-bench: ${userCount} users (${distinct} distinct team lists) × ${actionCount} actions, ${workers} jq worker${workers === 1 ? '' : 's'}\n`);
const ORGS: Record<string, [string, OrgSnapshot]> = {
  generated: ['synthetic org as generated', base],
  team: ['a distinct .user.team condition per action', withDistinctConditions(base, false)],
  email: ['a distinct condition per action that also reads .user.email', withDistinctConditions(base, true)],
};
for (const name of values.only.split(',')) {
  const entry = ORGS[name];
  if (!entry) throw new Error(`unknown org ${name}: one of ${Object.keys(ORGS).join(', ')}`);
  const [label, org] = entry;
  const without = await analysis(org);
  const withUsers = await analysis({ ...org, users });
  const access = withUsers.report.access ?? [];
  const loses = access.reduce((n, e) => n + (e.loses?.length ?? 0), 0);
  const gains = access.reduce((n, e) => n + (e.gains?.length ?? 0), 0);
  const ratio = withUsers.ms / without.ms;
  const goal = name === 'team' ? ` (goal ≤ ${GOAL}x: ${ratio <= GOAL ? 'met' : 'NOT met'})` : '';
  process.stdout.write(
    `access ${name.padEnd(9)} ${label}: with users ${seconds(withUsers.ms)} vs without ${seconds(without.ms)}: ${ratio.toFixed(2)}x${goal}; ` +
      `waiting for jq ${seconds(withUsers.jqMs)} vs ${seconds(without.jqMs)} (jq CPU meanwhile ${seconds(withUsers.jqCpuMs)}: ${(withUsers.jqCpuMs / Math.max(1, withUsers.jqMs)).toFixed(2)} workers busy on average), jq requests ${withUsers.requests} vs ${without.requests}; ` +
      `${access.length} changed permissions (${loses} losses, ${gains} gains); rss ${Math.round(process.memoryUsage().rss / 1_048_576)} MB\n`,
  );
}
