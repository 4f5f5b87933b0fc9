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
import type { UserRecord } from '../src/model/access.js';
import type { OrgSnapshot } from '../src/model/snapshot.js';
import { generateSyntheticOrg } from './synthetic-org.js';

const { values } = parseArgs({ options: { users: { type: 'string', default: '2000' }, actions: { type: 'string', default: '5000' } } });
const userCount = Number(values.users);
const actionCount = Number(values.actions);

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Deterministic users, one in 50 an admin: most in one team, some in two or three (65/30/5 %),
 * big teams more likely than small ones. Users with the same teams share one jq context, so this
 * spread (about a thousand distinct team lists of 2,000 users) is what the time depends on.
 */
function syntheticUsers(org: OrgSnapshot, count: number): UserRecord[] {
  const titles = (org.teams ?? []).map((team) => team.name);
  let state = 7;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const team = () => titles[Math.floor(next() ** 2 * titles.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const roll = next();
    const size = roll < 0.65 ? 1 : roll < 0.95 ? 2 : 3;
    return {
      email: `user${String(i).padStart(5, '0')}@example.com`,
      teams: [...new Set(Array.from({ length: size }, team))].map((name) => ({ name })),
      roles: [{ name: i % 50 === 0 ? 'Admin' : 'Member' }],
    };
  });
}

/** Every action gated by a condition of its own over the user's teams (and email, when asked). */
function withDistinctConditions(org: OrgSnapshot, readsEmail: boolean): OrgSnapshot {
  const titles = (org.teams ?? []).map((team) => team.name);
  const actionPermissions = Object.fromEntries(
    Object.entries(org.actionPermissions ?? {}).map(([id, permissions], i) => {
      const team = titles[i % titles.length]!;
      const other = titles[(i * 7 + 3) % titles.length]!;
      const condition = readsEmail
        ? `(.user.team | index("${team}") != null) or (.user.email | endswith("${String(i % 997).padStart(3, '0')}@example.com"))`
        : `.user.team | (index("${team}") != null) or (index("${other}") != null and length > ${i % 3})`;
      return [id, { ...permissions, execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } } }];
    }),
  );
  return { ...org, actionPermissions };
}

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
