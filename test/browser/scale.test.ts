import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON, writeReportPage } from './browser.js';
import { syntheticReport } from './synthetic-report.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('HTML report at scale, and printed', () => it.skip(SKIP_REASON, () => {}));
}

/** Change one filter control and time it until the new rows are laid out (what a person waits for). */
function timeFilter(page: Page, selector: string, value: string): Promise<number> {
  return page.evaluate(
    ([sel, val]) => {
      const control = document.querySelector(sel) as HTMLInputElement | HTMLSelectElement;
      const start = performance.now();
      control.value = val;
      control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
      document.body.getBoundingClientRect();
      void document.body.offsetHeight;
      return performance.now() - start;
    },
    [selector, value] as const,
  );
}

describe.skipIf(!hasChromium)('HTML report at scale, and printed', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens 10,000 findings quickly and filters them in under 100 ms', async () => {
    const report = syntheticReport(10_000);
    const { url, bytes } = writeReportPage('scale-10k', report);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    const loadMs = Date.now() - started;
    const navigation = await page.evaluate(() => {
      const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return { domContentLoaded: entry?.domContentLoadedEventEnd ?? -1, load: entry?.loadEventEnd ?? -1 };
    });
    expect(await page.locator('#match-count').textContent()).toBe('10000 findings');

    const filters: Record<string, number> = {};
    const step = async (name: string, selector: string, value: string) => {
      filters[name] = await timeFilter(page, selector, value);
    };
    await step('kind=manual', '#f-kind', 'manual');
    await step('category=action-mapping', '#f-category', 'action-mapping');
    await step('clear category', '#f-category', '');
    await step('verdict=breaks', '#f-verdict', 'breaks');
    await step('search "team 42"', '#f-q', 'team 42');
    await step('search "main.tf:1"', '#f-q', 'main.tf:1');
    await step('clear search', '#f-q', '');
    await step('reviewed=no', '#f-reviewed', 'no');
    await step('clear all', '#f-kind', '');
    // Each step's visible result is right, not just fast: spot-check the last two.
    expect(await page.locator('#match-count').textContent()).toMatch(/ of 10000 findings match$/);

    const measurements = { findings: 10_000, htmlBytes: bytes, loadMs, navigation, filterMs: filters };
    writeFileSync(join(OUTPUT, 'scale-10k.json'), `${JSON.stringify(measurements, null, 2)}\n`);
    console.log(`10,000 findings: ${(bytes / 1e6).toFixed(2)} MB, load ${loadMs} ms, filters (ms) ${JSON.stringify(filters)}`);

    // A page that shows only the first cards of each group, not 10,000 at once.
    expect(await page.locator('article.finding').count()).toBeLessThanOrEqual(13 * 50);
    for (const [name, ms] of Object.entries(filters)) expect(ms, name).toBeLessThan(100);
    expect(navigation.load).toBeLessThan(5_000);
    await context.close();
  }, 60_000);

  it('prints every matching finding unfolded, beyond the first page of each group', async () => {
    const report = syntheticReport(400);
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(writeReportPage('print-400', report).url);
    const first = report.findings[0]?.id ?? '';
    await page.locator(`#f-${first} input[type=checkbox]`).check();
    // On screen: paged, and the reviewed card folded.
    expect(await page.locator('article.finding').count()).toBeLessThan(400);
    expect(await page.locator('button.more').count()).toBeGreaterThan(0);
    expect(await page.locator(`#b-${first}`).isVisible()).toBe(false);

    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => page.locator('article.finding').count()).toBe(400);
    expect(await page.locator(`#b-${first}`).isVisible()).toBe(true);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('button.more').count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'screenshots', 'print-400.png'), clip: { x: 0, y: 0, width: 1000, height: 2400 } });
    const pdf = await page.pdf({ path: join(OUTPUT, 'print-400.pdf') });
    expect(pdf.length).toBeGreaterThan(50_000);

    // Back on screen, paged again.
    await page.emulateMedia({ media: 'screen' });
    await expect.poll(() => page.locator('article.finding').count()).toBeLessThan(400);
    await context.close();
  }, 60_000);
});
