import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON, writeReportPage } from './browser.js';
import { syntheticReport } from './synthetic-report.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('HTML report at scale, and printed', () => it.skip(SKIP_REASON, () => {}));
}

describe.skipIf(!hasChromium)('HTML report at scale, and printed', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Load and filter timings are measured by `npm run bench:report`, not asserted here: a busy CI
  // machine would make a timed test flaky. This test proves the page works at that size.
  it('opens 10,000 findings, shows them a window at a time, and filters them correctly', async () => {
    const report = syntheticReport(10_000);
    const { url } = writeReportPage('scale-10k', report);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.locator('#match-count').textContent()).toBe('10000 findings');
    // A page that shows only the first cards of each group, not 10,000 at once.
    expect(await page.locator('article.finding').count()).toBeLessThanOrEqual(13 * 50);

    const manual = report.findings.filter((f) => f.kind === 'manual').length;
    await page.selectOption('#f-kind', 'manual');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(`${manual} of 10000 findings match`);
    const manualBreaks = report.findings.filter((f) => f.kind === 'manual' && f.verdict === 'breaks').length;
    await page.selectOption('#f-verdict', 'breaks');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(`${manualBreaks} of 10000 findings match`);
    await page.selectOption('#f-kind', '');
    await page.selectOption('#f-verdict', '');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe('10000 findings');
    await context.close();
  }, 60_000);

  it('prints every matching finding unfolded, beyond the first page of each group', async () => {
    const report = syntheticReport(400);
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(writeReportPage('print-400', report).url);
    // A manual one: the automatic part starts folded on screen.
    const first = report.findings.find((f) => f.kind === 'manual')?.id ?? '';
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
