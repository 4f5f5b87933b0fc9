/**
 * `npm run bench:access` (issues 33 and 41): `analyze --snapshot` of an org with 2,000 users ×
 * 5,000 self-service actions as a whole command (reading, analysis, access, every report and the fix kit), against
 * the same command on the same org without users. Each is a process of its own, run in turn (with,
 * without, with, …), on snapshot files written to a temporary folder; the figures are the medians of
 * the runs' wall times and peak RSS (the kernel's count for the process, bench/whole-process.ts).
 * Goals (issue 41), on the `team` org: with users at most 3x the time without, and at most 1.2x its RSS.
 * Orgs:
 * - `team`: every action gated by its own `.user.team` condition, 5,000 different texts (the bench
 *   counts them and prints the count; before issue 41 its "distinct" conditions were 120 texts
 *   among 3,453 actions);
 * - `email`: the same, but each condition also reads `.user.email`, so every user is a context of its own;
 * - `generated`: the synthetic org as generated (few distinct expressions).
 * Options: --users N --conditions N (self-service actions, 5,000) --only team,email,generated --runs N (3)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { OrgSnapshot } from '../src/model/snapshot.js';
import { distinctTexts, generateSyntheticOrg, syntheticUsers, withDistinctConditions } from './synthetic-org.js';
import { median, runAnalyze, verdict, type ProcessFigures } from './whole-process.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '2000' },
    conditions: { type: 'string', default: '5000' },
    only: { type: 'string', default: 'team,email' },
    runs: { type: 'string', default: '3' },
  },
});
const userCount = Number(values.users);
const conditionCount = Number(values.conditions);
const runs = Number(values.runs);
const TIME_GOAL = 3;
const RSS_GOAL = 1.2;

const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
/** Automations carry no permissions (30 % of the generated actions): enough actions for N self-service ones. */
const base = generateSyntheticOrg({ blueprints: 2000, actions: Math.ceil(conditionCount / 0.69), pages: 1000 });
const gated = Object.keys(base.actionPermissions ?? {}).length;
const users = syntheticUsers(base, userCount);
const teamLists = new Set(users.map((user) => JSON.stringify(user.teams))).size;
process.stdout.write(`access-bench: ${userCount} users (${teamLists} distinct team lists) × ${gated} self-service actions (${base.actions?.length ?? 0} in all), analyze --snapshot as a whole process, ${runs} run(s) each in turn\n`);
const ORGS: Record<string, () => [string, OrgSnapshot]> = {
  team: () => ['a distinct .user.team condition per action', withDistinctConditions(base, false)],
  email: () => ['a distinct condition per action that also reads .user.email', withDistinctConditions(base, true)],
  generated: () => ['synthetic org as generated', base],
};
const dir = mkdtempSync(join(tmpdir(), 'tma-access-bench-'));
try {
  for (const name of values.only.split(',')) {
    const make = ORGS[name];
    if (!make) throw new Error(`unknown org ${name}: one of ${Object.keys(ORGS).join(', ')}`);
    const [label, org] = make();
    const texts = distinctTexts(org);
    const without = join(dir, `${name}-without.json`);
    const withUsers = join(dir, `${name}-with.json`);
    writeFileSync(without, JSON.stringify(org));
    writeFileSync(withUsers, JSON.stringify({ ...org, users }));
    const figures: { without: ProcessFigures[]; with: ProcessFigures[] } = { without: [], with: [] };
    for (let run = 0; run < runs; run++) {
      figures.with.push(runAnalyze(['--snapshot', withUsers, '--out', join(dir, 'out-with')]));
      figures.without.push(runAnalyze(['--snapshot', without, '--out', join(dir, 'out-without')]));
    }
    const wall = (list: ProcessFigures[]) => median(list.map((f) => f.wallMs));
    const peak = (list: ProcessFigures[]) => median(list.map((f) => f.peakMb));
    const cpu = (list: ProcessFigures[]) => median(list.map((f) => f.cpuMs));
    const timeRatio = wall(figures.with) / wall(figures.without);
    const rssRatio = peak(figures.with) / peak(figures.without);
    const goals = name !== 'generated' ? ` (goal ≤ ${TIME_GOAL}x: ${verdict(timeRatio <= TIME_GOAL)})` : '';
    const rssGoals = name !== 'generated' ? ` (goal ≤ ${RSS_GOAL}x: ${verdict(rssRatio <= RSS_GOAL)})` : '';
    process.stdout.write(
      `access ${name.padEnd(9)} ${label} (${texts} different condition texts): with users ${seconds(wall(figures.with))} vs without ${seconds(wall(figures.without))}: ${timeRatio.toFixed(2)}x${goals}; ` +
        `peak RSS ${peak(figures.with).toFixed(0)} MB vs ${peak(figures.without).toFixed(0)} MB: ${rssRatio.toFixed(2)}x${rssGoals}; CPU ${(cpu(figures.with) / cpu(figures.without)).toFixed(2)}x (the figure to read on a busy machine); medians of ${runs}\n`,
    );
    rmSync(join(dir, 'out-with'), { recursive: true, force: true });
    rmSync(join(dir, 'out-without'), { recursive: true, force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
