import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON } from './browser.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('progress since a previous report, in Chromium', () => it.skip(SKIP_REASON, () => {}));
}

describe.skipIf(!hasChromium)('progress since a previous report, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let report: Report;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    const out = join(OUTPUT, 'progress');
    mkdirSync(out, { recursive: true });
    const before = await runCliCaptured(['analyze', 'fixtures/migration-before.json', '--out', join(out, 'before'), '--format', 'json', '--quiet']);
    expect(before.code).toBe(1);
    const previous = join(out, 'previous-report.json');
    // Its org data read on 2026-01-01 (run.dataReadAt), whenever the file was copied.
    const beforeReport = JSON.parse(readFileSync(join(out, 'before', 'report.json'), 'utf8')) as Report;
    writeFileSync(previous, JSON.stringify({ ...beforeReport, run: { dataReadAt: '2026-01-01T09:00:00.000Z' } }));
    const after = await runCliCaptured(['analyze', 'fixtures/migration-after.json', '--since', previous, '--out', join(out, 'after'), '--quiet']);
    expect(after.code).toBe(1);
    report = JSON.parse(readFileSync(join(out, 'after', 'report.json'), 'utf8')) as Report;

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => /Content Security Policy|Refused to/i.test(message.text()) && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    const url = pathToFileURL(join(out, 'after', 'index.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    expect(requests).toEqual([url]);
  }, 60_000);
  afterAll(async () => browser?.close());

  it('opens with the progress: "10 of 15 fixed since" the previous report\'s date, before anything else in the page', async () => {
    const heading = page.locator('section.since h2');
    await expect(heading.textContent()).resolves.toBe('10 of 15 fixed since 2026-01-01');
    expect(await heading.isVisible()).toBe(true);
    // First section of the page's main part, above the fold.
    expect(await page.locator('main > section').first().getAttribute('class')).toBe('since');
    expect((await heading.boundingBox())!.y).toBeLessThan(900);
    await expect(page.locator('.since-sentence').textContent()).resolves.toContain('10 of 15 fixed since 2026-01-01; 5 still open, 0 new.');
    expect(problems).toEqual([]);
  });

  it('draws the chart inline: one bar per non-empty count, widths in proportion, coloured by the stylesheet', async () => {
    const bars = await page.$$eval('svg.since-chart rect', (rects) =>
      rects.map((r) => ({ tone: r.getAttribute('class'), width: Number(r.getAttribute('width')), fill: getComputedStyle(r).fill, title: r.querySelector('title')?.textContent })),
    );
    expect(bars.map((b) => [b.tone, b.title])).toEqual([
      ['since-fixed', '10 fixed'],
      ['since-open', '5 still open'],
    ]);
    expect(bars[0]!.width / bars[1]!.width).toBeCloseTo(2, 1);
    expect(bars[0]!.fill).not.toBe(bars[1]!.fill);
    expect(bars.every((b) => b.fill !== 'none' && b.fill !== '')).toBe(true);
    await expect(page.locator('svg.since-chart title').first().textContent()).resolves.toBe('10 fixed, 5 still open, 0 new');
    await expect(page.locator('.since-legend li').allTextContents()).resolves.toEqual(['10 fixed', '5 still open']);
  });

  it('lists every fixed finding under "Fixed since", reached from the header link', async () => {
    await page.locator('.since-sentence a').click();
    const section = page.locator('section.fixed-since');
    expect(await section.locator('h2').isVisible()).toBe(true);
    await expect(section.locator('h2').textContent()).resolves.toBe('Fixed since the previous report (10)');
    const rows = await section.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.id));
    expect(rows).toEqual(report.progress!.fixed.map((f) => f.id));
    const platform = section.locator('tr', { hasText: 'calculationProperties.platform_owned.calculation' });
    await expect(platform.locator('td').last().textContent()).resolves.toBe('checked, nothing to do now');
    const inherited = section.locator('tr', { hasText: 'teamInheritance.path' });
    await expect(inherited.locator('td').last().textContent()).resolves.toBe('no longer found');
  });

  it('folds the verified references under "Checked, nothing to do", and lists only what is still broken as findings', async () => {
    const details = page.locator('section.verified details');
    expect(await details.getAttribute('open')).toBeNull();
    await expect(page.locator('section.verified summary').textContent()).resolves.toContain('Checked, nothing to do (3)');
    expect(await page.locator('section.verified tbody tr').first().isVisible()).toBe(false);
    await page.locator('section.verified summary').click();
    expect(await page.locator('section.verified tbody tr').count()).toBe(report.verified!.length);
    expect(await page.locator('section.verified tbody tr').first().isVisible()).toBe(true);
    const shown = await page.$$eval('article.finding', (els) => els.map((e) => (e as HTMLElement).dataset.id).sort());
    expect(shown).toEqual(report.findings.map((f) => f.id).sort());
    // Issue 21: three breaking, two values people read still for review.
    expect(shown).toHaveLength(5);
    expect(problems).toEqual([]);
  });

  it('says a part is empty when it is, and blames the filter only when the filter hides its items', async () => {
    expect(report.summary.automatic).toBe(0);
    await page.locator('#part-automatic > summary').click();
    const automaticNote = page.locator('#empty-automatic');
    expect(await automaticNote.isVisible()).toBe(true);
    await expect(automaticNote.textContent()).resolves.toBe('Nothing in this part: no findings of this kind.');
    expect(await page.locator('#empty-manual').isVisible()).toBe(false);

    await page.fill('#f-q', 'no-finding-holds-this-text');
    await expect.poll(() => page.locator('#empty-manual').isVisible()).toBe(true);
    await expect(page.locator('#empty-manual').textContent()).resolves.toBe('Nothing here matches the filter.');
    // The filter hides nothing of the empty part: it still says it is empty.
    await expect(automaticNote.textContent()).resolves.toBe('Nothing in this part: no findings of this kind.');
    await page.fill('#f-q', '');
    await expect.poll(() => page.locator('#empty-manual').isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });
});
