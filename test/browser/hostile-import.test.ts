import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON, writeReportPage } from './browser.js';
import { finding, reportOf } from './synthetic-report.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('hostile review-state import in Chromium', () => it.skip(SKIP_REASON, () => {}));
}

// Issue 16 item 11: an imported review state is the user's file, not ours.
describe.skipIf(!hasChromium)('hostile review-state import in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  const report = reportOf([
    finding({ category: 'action-mapping', resource: { type: 'automation', identifier: 'a1' }, location: 'mapping', verdict: 'breaks' }),
    finding({ category: 'action-mapping', resource: { type: 'automation', identifier: 'a2' }, location: 'mapping', verdict: 'breaks' }),
  ]);
  const [first] = report.findings;

  async function importFile(name: string, content: string): Promise<{ status: string; checked: number; stored: string | null }> {
    const page = writeReportPage(`hostile-${name}`, report);
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page.url);
    const path = join(OUTPUT, `hostile-${name}.json`);
    writeFileSync(path, content);
    await tab.setInputFiles('#import', path);
    await expect.poll(() => tab.locator('#review-status').textContent()).toMatch(/imported/i);
    const result = {
      status: (await tab.locator('#review-status').textContent()) ?? '',
      checked: await tab.locator('article.finding input:checked').count(),
      stored: await tab.evaluate(() => window.localStorage.getItem(Object.keys(window.localStorage)[0] ?? '')),
    };
    await context.close();
    return result;
  }

  it('counts neither __proto__ nor other prototype names as finding ids', async () => {
    const state = {
      format: 'teams-migration-audit/review-state/1',
      organization: report.organization,
      reviewed: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', first!.id],
    };
    const result = await importFile('proto', JSON.stringify(state));
    expect(result.status).toContain('Imported 1 reviewed items (1 new)');
    expect(result.checked).toBe(1);
    expect(result.stored === null ? [] : Object.keys(JSON.parse(result.stored) as object)).toEqual([first!.id]);
  });

  it('refuses a state whose organization id is a deeply nested value, in one message', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const text = `{"format":"teams-migration-audit/review-state/1","organization":{"id":${deep}},"reviewed":[]}`;
    const result = await importFile('deep', text);
    expect(result.status).toBe('Not imported: the file is for organization another one, this report is for org_synthetic.');
    expect(result.checked).toBe(0);
  });
});
