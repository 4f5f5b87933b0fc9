/**
 * `npm run bench:print`: analyze the 10x synthetic org (2,000 blueprints, 5,000 actions, 1,000
 * pages), render its page, and print it to PDF in Debian's Chromium (page.pdf), as a person's
 * "Print" does: the time to the PDF, its pages, and the findings it holds (goal: under 30 s).
 * Timings live here, not in tests, where a busy machine would make them flaky.
 * Options: --blueprints N --actions N --pages N, or --report FILE (a report.json to print, as the
 * bench writes one beside its PDF: no analysis to wait for while trying print styles)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { analyze } from '../src/analyze.js';
import { buildCatalog } from '../src/catalog/build-catalog.js';
import { loadJqEngine } from '../src/jq/engine.js';
import type { Report } from '../src/model/finding.js';
import { hasChromium, launchChromium, SKIP_REASON, writeReportPage } from '../test/browser/browser.js';
import { generateSyntheticOrg } from './synthetic-org.js';

const { values } = parseArgs({
  options: {
    blueprints: { type: 'string', default: '2000' },
    actions: { type: 'string', default: '5000' },
    pages: { type: 'string', default: '1000' },
    report: { type: 'string' },
  },
});

/**
 * CPU seconds used so far by this process's descendants (Chromium's processes), from /proc: the
 * figure a busy machine does not stretch, beside the wall time it does.
 */
function browserCpuSeconds(): number {
  const ticks = 100; // USER_HZ on Linux
  const stats = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return [{ pid: Number(pid), ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / ticks }];
    } catch {
      return [];
    }
  });
  const ours = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const stat of stats) if (!ours.has(stat.pid) && ours.has(stat.ppid)) (ours.add(stat.pid), (grew = true));
  }
  return stats.filter((stat) => stat.pid !== process.pid && ours.has(stat.pid)).reduce((sum, stat) => sum + stat.cpu, 0);
}

async function analyzed(): Promise<Report> {
  const jq = await loadJqEngine();
  const org = generateSyntheticOrg({ blueprints: Number(values.blueprints), actions: Number(values.actions), pages: Number(values.pages) });
  const report = analyze(buildCatalog(org, { jq }));
  await jq.close?.();
  return report;
}

if (!hasChromium) {
  process.stdout.write(`print bench ${SKIP_REASON}\n`);
} else {
  const report = values.report !== undefined ? (JSON.parse(readFileSync(values.report, 'utf8')) as Report) : await analyzed();
  const verdicts = (verdict: string) => report.findings.filter((f) => f.kind === 'manual' && (f.verdict ?? 'none') === verdict).length;
  const { url, path } = writeReportPage('print-bench', report);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url, { waitUntil: 'load' });
    const started = Date.now();
    const cpuBefore = browserCpuSeconds();
    const pdf = await page.pdf({ format: 'A4' });
    const printMs = Date.now() - started;
    const printCpu = browserCpuSeconds() - cpuBefore;
    const pdfPath = path.replace(/index\.html$/, 'report.pdf');
    writeFileSync(pdfPath, pdf);
    writeFileSync(path.replace(/index\.html$/, 'report.json'), JSON.stringify(report));
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
    process.stdout.write(
      `${report.findings.length} findings (${report.summary.manual} manual: ${verdicts('breaks')} breaking, ${verdicts('none')} needing action, ${verdicts('review')} to review; ` +
        `${report.summary.automatic} automatic): printed in ${(printMs / 1000).toFixed(1)} s (Chromium CPU ${printCpu.toFixed(1)} s; load average ${loadavg()[0]!.toFixed(1)}), ${pages} pages, ${(pdf.length / 1024 / 1024).toFixed(1)} MiB (${pdfPath})\n`,
    );
  } finally {
    await browser.close();
  }
}
