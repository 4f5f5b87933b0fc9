/**
 * `npm run bench:analyze`: analyze a synthetic org (2,000 blueprints, 5,000 actions, 1,000 pages
 * by default) offline, as `analyze --snapshot` does, and print the time and memory of each stage.
 * A second size at double the org shows whether analysis stays linear.
 * Options: --blueprints N --actions N --pages N --distinct (every jq expression distinct, as in a
 * real org; by default the synthetic org reuses a handful, which the jq caches hide) --once (one size)
 */
import { parseArgs } from 'node:util';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import { renderHtml } from '../src/report/html.js';
import { renderJson } from '../src/report/json.js';
import { generateSyntheticOrg } from './synthetic-org.js';

const { values } = parseArgs({
  options: {
    blueprints: { type: 'string', default: '2000' },
    actions: { type: 'string', default: '5000' },
    pages: { type: 'string', default: '1000' },
    distinct: { type: 'boolean', default: false },
    once: { type: 'boolean', default: false },
  },
});
const base = { blueprints: Number(values.blueprints), actions: Number(values.actions), pages: Number(values.pages) };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ms = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms`;

const jq = await loadJqEngine();
for (const factor of values.once ? [1] : [1, 2]) {
  const size = { blueprints: base.blueprints * factor, actions: base.actions * factor, pages: base.pages * factor, distinctExpressions: values.distinct };
  const org = generateSyntheticOrg(size);
  const started = process.hrtime.bigint();
  const requestsBefore = jq.requests?.() ?? 0;
  let t = process.hrtime.bigint();
  const catalog = buildCatalog(org, { jq });
  const catalogTime = ms(t);
  t = process.hrtime.bigint();
  const report = analyze(catalog);
  const analyzeTime = ms(t);
  const jqRequests = (jq.requests?.() ?? 0) - requestsBefore;
  t = process.hrtime.bigint();
  const json = renderJson(report);
  const jsonTime = ms(t);
  t = process.hrtime.bigint();
  const html = renderHtml(report, { generatedAt: '2026-01-01T00:00:00.000Z', source: 'synthetic' });
  const htmlTime = ms(t);
  process.stdout.write(
    `${size.blueprints} blueprints, ${size.actions} actions, ${size.pages} pages${values.distinct ? ', every expression distinct' : ''} → ${report.findings.length} findings ` +
      `(${report.summary.automatic} automatic, ${report.summary.manual} manual)\n` +
      `  catalog ${catalogTime}, rules ${analyzeTime} (${jqRequests} jq requests), report.json ${jsonTime} (${mib(json.length)}), ` +
      `index.html ${htmlTime} (${mib(html.length)}); total ${ms(started)}; heap used ${mib(process.memoryUsage().heapUsed)}, ` +
      `rss ${mib(process.memoryUsage().rss)}\n`,
  );
}
