/**
 * `npm run bench:analyze`: analyze a synthetic org (2,000 blueprints, 5,000 actions, 1,000 pages
 * by default) offline, as `analyze --snapshot` does, and print the time and memory of each stage.
 * A second size at double the org shows whether analysis stays linear.
 * Options: --blueprints N --actions N --pages N --distinct (every jq expression distinct, as in a
 * real org; by default the synthetic org reuses a handful, which the jq caches hide) --once (one size)
 * --compare N (default 3; 0 skips it) --workers N (jq workers; one per core by default)
 *
 * Issue 33: then the analysis of the first size as a whole process, ours against the tree before
 * the judge (bench/pre-judge.ts), in turn, N pairs, each process analysing the same org with the
 * same options; the median of the pairs' ratios is the figure (goal: no slower than before).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import { renderHtml } from '../src/report/html.js';
import { renderJson } from '../src/report/json.js';
import { preJudgeAnalyzeBench, PRE_JUDGE_COMMIT } from './pre-judge.js';
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
  },
});
const base = { blueprints: Number(values.blueprints), actions: Number(values.actions), pages: Number(values.pages) };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ms = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms`;

const jq = await loadJqEngine(values.workers === undefined ? {} : { workers: Number(values.workers) });
const { engine, waitedMs, workersCpuMs } = timed(jq);
for (const factor of values.once ? [1] : [1, 2]) {
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
  const jqWait = `${(waitedMs() - waitedBefore).toFixed(0)} ms waiting for them, ${(workersCpuMs() - cpuBefore).toFixed(0)} ms of jq CPU meanwhile`;
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

const pairs = Number(values.compare);
if (pairs > 0) {
  const before = preJudgeAnalyzeBench();
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
      ours.push(total(fileURLToPath(import.meta.url), ['--compare', '0']));
      theirs.push(total(before.script));
      ratios.push(ours[pair]! / theirs[pair]!);
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const ratio = median(ratios);
    process.stdout.write(
      `analyze ${base.blueprints}/${base.actions}/${base.pages}${values.distinct ? ' (every expression distinct)' : ''} vs before the judge (${PRE_JUDGE_COMMIT.slice(0, 7)}): ` +
        `${(median(ours) / 1_000).toFixed(2)} s vs ${(median(theirs) / 1_000).toFixed(2)} s, ${ratio.toFixed(2)}x (goal ≤ 1.00x: ${ratio <= 1 ? 'met' : 'NOT met'}), median of ${pairs} pairs run in turn\n`,
    );
  }
}
