/**
 * `npm run bench:report`: render a report of 10,000 synthetic findings, open it in Debian's
 * Chromium from file://, and print the file size, the load time and the time each filter takes
 * (target: under 100 ms). Timings live here, not in tests, where a busy machine would make them flaky.
 * Options: --findings N
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { hasChromium, launchChromium, SKIP_REASON, writeReportPage } from '../test/browser/browser.js';
import { syntheticReport } from '../test/browser/synthetic-report.js';

const { values } = parseArgs({ options: { findings: { type: 'string', default: '10000' } } });
const count = Number(values.findings);

/** Change one filter control and force layout, timed inside the page. */
function timeFilter(page: Page, selector: string, value: string): Promise<number> {
  return page.evaluate(
    ([sel, val]) => {
      const control = document.querySelector(sel) as HTMLInputElement | HTMLSelectElement;
      const start = performance.now();
      control.value = val;
      control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
      void document.body.offsetHeight;
      return performance.now() - start;
    },
    [selector, value] as const,
  );
}

if (!hasChromium) {
  process.stdout.write(`report bench ${SKIP_REASON}\n`);
} else {
  const { url, bytes } = writeReportPage(`bench-${count}`, syntheticReport(count));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    const loadMs = Date.now() - started;
    const steps: [string, string, string][] = [
      ['kind=manual', '#f-kind', 'manual'],
      ['category=action-mapping', '#f-category', 'action-mapping'],
      ['clear category', '#f-category', ''],
      ['verdict=breaks', '#f-verdict', 'breaks'],
      ['search "team 42"', '#f-q', 'team 42'],
      ['clear search', '#f-q', ''],
      ['reviewed=no', '#f-reviewed', 'no'],
      ['clear all', '#f-kind', ''],
    ];
    const timings: string[] = [];
    for (const [name, selector, value] of steps) timings.push(`${name} ${(await timeFilter(page, selector, value)).toFixed(0)} ms`);
    process.stdout.write(
      `report with ${count} findings: ${(bytes / 1024 / 1024).toFixed(2)} MiB, load ${loadMs} ms\n  filters: ${timings.join(', ')}\n`,
    );
  } finally {
    await browser.close();
  }
}
