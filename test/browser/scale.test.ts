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

  it('prints the work: every breaking item, then what needs action, then what needs review, unpaged, then the counts; the rest stays out of print', async () => {
    const report = syntheticReport(400);
    const work = report.findings.filter((f) => f.kind === 'manual' && f.verdict !== 'unaffected');
    expect(work.length).toBeGreaterThan(100);
    expect(report.summary.automatic).toBeGreaterThan(0);
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(writeReportPage('print-400', report).url);
    const first = work[0]!.id;
    await page.locator(`#f-${first} input[type=checkbox]`).check();
    // On screen: paged, and the reviewed card folded.
    expect(await page.locator('article.finding').count()).toBeLessThan(400);
    expect(await page.locator('button.more').count()).toBeGreaterThan(0);
    expect(await page.locator(`#b-${first}`).isVisible()).toBe(false);
    expect(await page.locator('.print-counts').isVisible()).toBe(false);

    await page.emulateMedia({ media: 'print' });
    // Every item of the work, unpaged; nothing of the automatic part or of what is unaffected is even built.
    await expect.poll(() => page.locator('article.finding').count()).toBe(work.length);
    expect(await page.locator('#groups-automatic article').count()).toBe(0);
    expect(await page.locator('button.more').count()).toBe(0);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('#part-automatic').isVisible()).toBe(false);
    // In the order of the work, the reviewed item marked.
    const verdicts = await page.$$eval('article.finding', (cards) => cards.map((card) => /verdict-(\w+)/.exec(card.className)?.[1] ?? ''));
    const rank = { breaks: 0, none: 1, review: 2 } as Record<string, number>;
    const files = report.findings.filter((f) => f.resource.type === 'file').length;
    const manualPart = verdicts.slice(0, verdicts.length - files);
    expect(manualPart.every((v, i) => i === 0 || rank[manualPart[i - 1]!]! <= rank[v]!), manualPart.join(' ')).toBe(true);
    expect(await page.locator(`#f-${first} .print-head`).textContent()).toMatch(/^✓ /);
    // Each item says what and where, what to do and the value to write; why, access and the controls stay on screen.
    const withValue = work.find((f) => f.rewrite)!;
    const card = page.locator(`#f-${withValue.id}`);
    expect(await card.locator('.print-head').textContent()).toBe(`${withValue.resource.type} ${withValue.resource.identifier} ${withValue.location} id ${withValue.id}`);
    expect(await card.locator('.print-value code').textContent()).toBe(withValue.rewrite);
    expect(await card.locator('button, input, dl').count()).toBe(0);
    expect(await card.textContent()).not.toContain(withValue.reason);
    // Without a value to write, what to do and the value as it is now.
    const withoutValue = work.find((f) => f.rewrite === undefined)!;
    expect(await page.locator(`#f-${withoutValue.id} .print-line`).textContent()).toBe(withoutValue.suggestion);
    expect(await page.locator(`#f-${withoutValue.id} .print-value`).textContent()).toBe(`Now: ${withoutValue.evidence}`);
    // Then the counts, after the last item, saying what was left out.
    const counts = page.locator('.print-counts');
    expect(await counts.isVisible()).toBe(true);
    expect(await page.evaluate(() => {
      const cards = document.querySelectorAll('article.finding');
      const last = cards[cards.length - 1]!;
      return Boolean(last.compareDocumentPosition(document.querySelector('.print-counts')!) & Node.DOCUMENT_POSITION_FOLLOWING);
    })).toBe(true);
    expect(await counts.textContent()).toContain(`Not printed: ${report.summary.automatic} changes the migration makes by itself`);
    await page.screenshot({ path: join(OUTPUT, 'screenshots', 'print-400.png'), clip: { x: 0, y: 0, width: 1000, height: 2400 } });
    const pdf = await page.pdf({ path: join(OUTPUT, 'print-400.pdf') });
    expect(pdf.length).toBeGreaterThan(50_000);

    // Back on screen, paged again.
    await page.emulateMedia({ media: 'screen' });
    await expect.poll(() => page.locator('article.finding').count()).toBeLessThan(400);
    await context.close();
  });
});
