import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON } from './browser.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('Download fix links in Chromium', () => it.skip(SKIP_REASON, () => {}));
}

describe.skipIf(!hasChromium)('Download fix links in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('a fixed finding links to its file beside the report, which opens under the CSP; an unfixable one has no link', async () => {
    const out = join(OUTPUT, 'fix-links');
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--quiet', '--fix-out', join(out, 'fixes')]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const fixed = report.findings.find((f) => f.location === 'calculationProperties.platform_owned.calculation')!;
    const unfixable = report.findings.find((f) => f.location === 'calculationProperties.owner_list.calculation')!;
    // Issue 21: a value people read that turns into identifiers is for review, and has no fix.
    expect(unfixable.verdict).toBe('review');

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    const link = page.locator(`article.finding[data-id="${fixed.id}"] a.fix-link`);
    await expect(link.textContent()).resolves.toBe('Download fix');
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    expect(fileURLToPath(href)).toBe(join(out, 'fixes', 'org', 'blueprint', 'service.json'));
    // Served over http the `download` attribute saves it; from file:// it opens in a new tab, the report stays.
    const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(href);
    expect(JSON.parse(await opened.locator('body').innerText())).toEqual(JSON.parse(readFileSync(join(out, 'fixes', 'org', 'blueprint', 'service.json'), 'utf8')));
    expect(page.url()).toBe(pathToFileURL(join(out, 'index.html')).href);
    expect(await page.locator(`article.finding[data-id="${unfixable.id}"] a.fix-link`).count()).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });
});
