/**
 * `npm run bench:analyze`: analyze a synthetic org (2,000 blueprints, 5,000 actions, 1,000 pages
 * by default) offline, as `analyze --snapshot` does, and print the time and memory of each stage.
 * A second size at double the org shows whether analysis stays linear.
 * Options: --blueprints N --actions N --pages N --distinct (every jq expression distinct, as in a
 * real org; by default the synthetic org reuses a handful, which the jq caches hide) --once (one size)
 * --compare N (default 3; 0 skips it) --workers N (jq workers; one per core by default)
 * --plain (jq calls are not timed: the timing itself costs a CPU-time read per call, which the
 * tree before the judge does not pay, so the processes compared run with it)
 *
 * Issue 33: then the analysis of the first size as a whole process, ours against the tree before
 * the judge (bench/pre-judge.ts), in turn, N pairs, each process analysing the same org with the
 * same options; the median of the pairs' ratios is the figure (goal: no slower than before).
 * Issue 39: the 10x org's `analyze --snapshot --format json --no-fixes` as a whole command, ours
 * against main when that issue was filed, in turn, N pairs, median of ratios (goal ≤ 1.20x).
 * --only-one-judge prints that figure alone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import { renderHtml } from '../src/report/html.js';
import { renderJson } from '../src/report/json.js';
import { analyzeBenchAt, ONE_JUDGE_FILED_COMMIT, PRE_JUDGE_COMMIT } from './pre-judge.js';
import { generateSyntheticOrg } from './synthetic-org.js';
import { timed } from './timed-engine.js';

const { values } = parseArgs({
  options: {
    blueprints: { type: 'string', default: '2000' },
    actions: { type: 'string', default: '5000' },
    pages: { type: 'string', default: '1000' },
    distinct: { type: 'boolean', default: false },
    once: { type: 'boolean', default: false },
    compare: { type: 'string', default: '3' },
    workers: { type: 'string' },
    plain: { type: 'boolean', default: false },
    'only-one-judge': { type: 'boolean', default: false },
  },
});
/** The live 10x org of issue 33. */
const TEN_X = { blueprints: 3_000, actions: 6_000, pages: 2_000 };
const base = { blueprints: Number(values.blueprints), actions: Number(values.actions), pages: Number(values.pages) };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ms = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms`;

const pairs = Number(values.compare);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const jq = await loadJqEngine(values.workers === undefined ? {} : { workers: Number(values.workers) });
const { engine, waitedMs, workersCpuMs } = values.plain ? { engine: jq, waitedMs: () => Number.NaN, workersCpuMs: () => Number.NaN } : timed(jq);
for (const factor of values['only-one-judge'] ? [] : values.once ? [1] : [1, 2]) {
  const size = { blueprints: base.blueprints * factor, actions: base.actions * factor, pages: base.pages * factor, distinctExpressions: values.distinct };
  const org = generateSyntheticOrg(size);
  const started = process.hrtime.bigint();
  const requestsBefore = jq.requests?.() ?? 0;
  let t = process.hrtime.bigint();
  const waitedBefore = waitedMs();
  const cpuBefore = workersCpuMs();
  const catalog = buildCatalog(org, { jq: engine });
  const catalogTime = ms(t);
  t = process.hrtime.bigint();
  const report = analyze(catalog);
  const analyzeTime = ms(t);
  const jqRequests = (jq.requests?.() ?? 0) - requestsBefore;
  const jqWait = values.plain ? 'not timed' : `${(waitedMs() - waitedBefore).toFixed(0)} ms waiting for them, ${(workersCpuMs() - cpuBefore).toFixed(0)} ms of jq CPU meanwhile`;
  t = process.hrtime.bigint();
  const json = renderJson(report);
  const jsonTime = ms(t);
  t = process.hrtime.bigint();
  const html = renderHtml(report, { generatedAt: '2026-01-01T00:00:00.000Z', source: 'synthetic' });
  const htmlTime = ms(t);
  process.stdout.write(
    `${size.blueprints} blueprints, ${size.actions} actions, ${size.pages} pages${values.distinct ? ', every expression distinct' : ''} → ${report.findings.length} findings ` +
      `(${report.summary.automatic} automatic, ${report.summary.manual} manual)\n` +
      `  catalog ${catalogTime}, rules ${analyzeTime} (${jqRequests} jq requests on ${jq.workers?.() ?? 1} workers, ${jqWait}), report.json ${jsonTime} (${mib(json.length)}), ` +
      `index.html ${htmlTime} (${mib(html.length)}); total ${ms(started)}; heap used ${mib(process.memoryUsage().heapUsed)}, ` +
      `rss ${mib(process.memoryUsage().rss)}\n`,
  );
}
await jq.close?.();

if (pairs > 0 && !values['only-one-judge']) {
  const before = analyzeBenchAt(PRE_JUDGE_COMMIT);
  if ('unavailable' in before) process.stdout.write(`analyze vs before the judge: not measured: ${before.unavailable}\n`);
  else {
    const args = ['--once', '--blueprints', values.blueprints, '--actions', values.actions, '--pages', values.pages, ...(values.distinct ? ['--distinct'] : [])];
    /** One whole analysis in a process of its own: the `total` its bench prints, in ms. */
    const total = (script: string, extra: string[] = []) => {
      const printed = execFileSync(process.execPath, [script, ...args, ...extra], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      const match = /total (\d+) ms/.exec(printed);
      if (!match) throw new Error(`no total in ${script}'s output: ${printed}`);
      return Number(match[1]);
    };
    const ours: number[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      ours.push(total(fileURLToPath(import.meta.url), ['--compare', '0', '--plain']));
      theirs.push(total(before.script));
      ratios.push(ours[pair]! / theirs[pair]!);
    }
    const ratio = median(ratios);
    process.stdout.write(
      `analyze ${base.blueprints}/${base.actions}/${base.pages}${values.distinct ? ' (every expression distinct)' : ''} vs before the judge (${PRE_JUDGE_COMMIT.slice(0, 7)}): ` +
        `${(median(ours) / 1_000).toFixed(2)} s vs ${(median(theirs) / 1_000).toFixed(2)} s, ${ratio.toFixed(2)}x (goal ≤ 1.00x: ${ratio <= 1 ? 'met' : 'NOT met'}), median of ${pairs} pairs run in turn\n`,
    );
    process.stdout.write(`${cliComparison(before.cli, { reference: 'before the judge', goal: 1, args: [] })}\n`);
  }
}
if (pairs > 0) {
  const filed = analyzeBenchAt(ONE_JUDGE_FILED_COMMIT);
  if ('unavailable' in filed) process.stdout.write(`analyze vs issue 39's filing: not measured: ${filed.unavailable}\n`);
  else process.stdout.write(`${cliComparison(filed.cli, { reference: `main when issue 39 was filed (${ONE_JUDGE_FILED_COMMIT.slice(0, 7)})`, goal: 1.2, args: ['--format', 'json', '--no-fixes'] })}\n`);
}

/**
 * `analyze --snapshot` of the 10x org (3,000 blueprints, 6,000 actions, 2,000 pages, every
 * expression distinct) as a whole command, ours against an earlier tree, on the same snapshot file,
 * in turn: reading, analysis, access and the reports asked for. Issue 33's figure (against the tree
 * before the judge, all default outputs and the fix kit) and issue 39's (against main when it was
 * filed, report.json alone).
 */
function cliComparison(theirCli: string, against: { reference: string; goal: number; args: string[] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tma-analyze-bench-'));
  try {
    const snapshot = join(dir, 'org-10x.json');
    writeFileSync(snapshot, JSON.stringify(generateSyntheticOrg({ ...TEN_X, distinctExpressions: true })));
    const ourCli = fileURLToPath(new URL('../src/main.js', import.meta.url));
    const run = (cli: string, name: string) => {
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, [cli, 'analyze', '--snapshot', snapshot, '--out', join(dir, name), ...against.args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      // 0: the gate passed; 1: it failed on findings. Anything else is no measurement.
      if (result.status !== 0 && result.status !== 1) throw new Error(`${name}: analyze exited ${result.status}: ${result.stderr.split('\n')[0]}`);
      rmSync(join(dir, name), { recursive: true, force: true });
      return elapsed;
    };
    const ours: number[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      ours.push(run(ourCli, 'ours'));
      theirs.push(run(theirCli, 'before-judge'));
      ratios.push(ours[pair]! / theirs[pair]!);
    }
    const ratio = median(ratios);
    return (
      `analyze --snapshot${against.args.length ? ` ${against.args.join(' ')}` : ''} of the 10x org (${TEN_X.blueprints}/${TEN_X.actions}/${TEN_X.pages}, every expression distinct) as a whole command vs ${against.reference}: ` +
      `${(median(ours) / 1_000).toFixed(2)} s vs ${(median(theirs) / 1_000).toFixed(2)} s, ${ratio.toFixed(2)}x (goal ≤ ${against.goal.toFixed(2)}x: ${ratio <= against.goal ? 'met' : 'NOT met'}), median of ${pairs} pairs run in turn`
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
