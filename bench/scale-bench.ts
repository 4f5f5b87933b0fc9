/**
 * `npm run bench:scale` (issue 41): `analyze --snapshot` of large orgs as a whole command (reading,
 * validation, analysis, every report and the fix kit with the predicted org), each run a process of
 * its own, against reading and JSON-parsing the same snapshot file in a process of its own
 * (bench/parse-snapshot.ts). Figures: wall time (a monotonic clock around the child) and peak RSS (the
 * kernel's count for the process, bench/whole-process.ts), RUNS pairs taken in turn (parse,
 * analyze, parse, …); each ratio is the median of the pairs' own ratios, so load that changes during
 * the bench hits both sides of a pair alike. Snapshots are written to a temporary folder and removed after.
 * Orgs and goals:
 * - `100k`, `1m`: the 1x org (300 blueprints, 600 actions, 200 pages) holding 100,000 and 1,000,000
 *   entities (about 270 bytes each, as a real catalog's: title, team values, properties, relations to
 *   entities of other blueprints and to `_team`: bench/entity-org.ts);
 *   goal at most 1 GB peak RSS, and at a million at most 3x the parse's wall time (at 100,000 the
 *   ratio is printed: the org's own analysis, about 2 s of CPU, outweighs a 0.25 s parse);
 * - `100x`: the org of 30,000 blueprints, 60,000 actions, 20,000 pages (as generated); goal under 1 GB.
 * Each side's wall time is also split (Linux): its main thread on a core, waiting in the run queue for
 * one (what the machine's load adds), and asleep (reads, waits on worker threads).
 * Options: --only 100k,1m,100x --runs N (5 pairs)
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { OrgSnapshot } from '../src/model/snapshot.js';
import { writeEntityOrg } from './entity-org.js';
import { generateSyntheticOrg } from './synthetic-org.js';
import { median, runAnalyze, runNode, verdict, type ProcessFigures } from './whole-process.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: '100k,1m,100x' }, runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const RSS_GOAL_MB = 1_024;
const PARSE_GOAL = 3;
const PARSE = fileURLToPath(new URL('./parse-snapshot.js', import.meta.url));

function writeOrg(path: string, org: OrgSnapshot): void {
  writeFileSync(path, JSON.stringify(org));
}

const ORGS: Record<string, { label: string; write: (path: string) => void; parseGoal: boolean }> = {
  // At 100,000 entities the org's own analysis (jq, rules: about 2 s of CPU) outweighs the parse; the goal is set at a million.
  '100k': { label: '1x org with 100,000 entities', write: (path) => writeEntityOrg(path, 100_000), parseGoal: false },
  '1m': { label: '1x org with 1,000,000 entities', write: (path) => writeEntityOrg(path, 1_000_000), parseGoal: true },
  '100x': { label: '100x org (30,000 blueprints, 60,000 actions, 20,000 pages)', write: (path) => writeOrg(path, generateSyntheticOrg({ blueprints: 30_000, actions: 60_000, pages: 20_000 })), parseGoal: false },
};

/**
 * Where a process's wall time went (issue 41: the wall ratio follows the machine's load, the CPU
 * ratio does not): medians of its main thread's time on a core, of its wait in the run queue for
 * one (the load's share), and of the rest, when it slept (reading the file, waiting on a worker
 * thread); and the run-queue wait of all its threads. Nothing where the kernel does not count it.
 */
function whereTheWallWent(label: string, list: readonly ProcessFigures[]): string {
  const known = list.flatMap((f) => (f.schedule === undefined ? [] : [{ wall: f.wallMs, ...f.schedule }]));
  if (known.length === 0) return '';
  const seconds = (of: (f: (typeof known)[number]) => number) => (median(known.map(of)) / 1_000).toFixed(2);
  return (
    `  ${label}: wall ${seconds((f) => f.wall)} s = main thread on a core ${seconds((f) => f.mainOnCpuMs)} s + waiting for a core ${seconds((f) => f.mainWaitMs)} s ` +
    `+ asleep ${seconds((f) => f.wall - f.mainOnCpuMs - f.mainWaitMs)} s (medians, so the parts need not add up); every thread's wait for a core ${seconds((f) => f.threadsWaitMs)} s\n`
  );
}

const dir = mkdtempSync(join(tmpdir(), 'tma-scale-bench-'));
try {
  for (const name of values.only.split(',')) {
    const org = ORGS[name];
    if (!org) throw new Error(`unknown org ${name}: one of ${Object.keys(ORGS).join(', ')}`);
    const snapshot = join(dir, `${name}.json`);
    org.write(snapshot);
    const size = statSync(snapshot).size / 1_048_576;
    const parses: ProcessFigures[] = [];
    const analyses: ProcessFigures[] = [];
    const loadBefore = loadavg()[0]!;
    for (let run = 0; run < RUNS; run++) {
      parses.push(runNode(PARSE, [snapshot]));
      analyses.push(runAnalyze(['--snapshot', snapshot, '--out', join(dir, 'out')]));
      rmSync(join(dir, 'out'), { recursive: true, force: true });
    }
    const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`;
    const wall = (list: ProcessFigures[]) => median(list.map((f) => f.wallMs)) / 1_000;
    const peak = (list: ProcessFigures[]) => median(list.map((f) => f.peakMb));
    const cpu = (list: ProcessFigures[]) => median(list.map((f) => f.cpuMs)) / 1_000;
    // Each analysis against the parse run just before it, so load that shifts during the bench hits both alike.
    const pairRatio = (of: (f: ProcessFigures) => number) => median(analyses.map((f, run) => of(f) / of(parses[run]!)));
    const ratio = pairRatio((f) => f.wallMs);
    const rssMet = peak(analyses) <= RSS_GOAL_MB;
    process.stdout.write(
      `scale ${name.padEnd(4)} ${org.label}, ${size.toFixed(0)} MB: analyze ${wall(analyses).toFixed(2)} s, peak RSS ${peak(analyses).toFixed(0)} MB (goal ≤ ${RSS_GOAL_MB} MB: ${verdict(rssMet)}); ` +
        `read and JSON.parse ${wall(parses).toFixed(2)} s, peak RSS ${peak(parses).toFixed(0)} MB; ${ratio.toFixed(2)}x the parse's wall time` +
        `${org.parseGoal ? ` (goal ≤ ${PARSE_GOAL}x: ${verdict(ratio <= PARSE_GOAL)})` : ''}; CPU ${cpu(analyses).toFixed(2)} s vs ${cpu(parses).toFixed(2)} s, ${pairRatio((f) => f.cpuMs).toFixed(2)}x (the figure to read on a busy machine)\n` +
        `${whereTheWallWent('analyze', analyses)}${whereTheWallWent('parse', parses)}` +
        `  how taken: ${RUNS} pairs run in turn (parse, then analyze), each a process of its own; ratios are the median of each pair's ratio, times and RSS medians; ` +
        `wall time around the child, peak RSS and CPU the kernel's count for it (getrusage at exit); ${load}\n`,
    );
    rmSync(snapshot, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
