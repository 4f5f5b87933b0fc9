/**
 * Issue 41, item 2: with thousands of people the page carries counts, and the people behind a
 * count come from report.json when the reader opens it, so the page does not grow with
 * users × actions. One opened file fills every list; a file of another org or another run is
 * refused with a reason, and the lists stay as they were.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { renderJson } from '../../src/report/json.js';
import { INLINE_PEOPLE } from '../../src/report/view-model.js';
import { hasChromium, launchChromium, OUTPUT, SKIP_REASON, writeReportPage } from './browser.js';
import { finding, reportOf } from './synthetic-report.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('access people on demand', () => it.skip(SKIP_REASON, () => {}));
}

const run = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'deploy' }, location: 'permissions.execute', verdict: 'breaks' });
const approve = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'release' }, location: 'permissions.approve', verdict: 'breaks' });
const emails = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(5, '0')}+${tag}@example.com`);
const LOSING = INLINE_PEOPLE + 500;

function reportWith(org = { id: 'org_synthetic', name: 'Synthetic Org' }, losing = LOSING): Report {
  return {
    ...reportOf([run, approve], org),
    access: [
      { resource: run.resource, permission: 'execute', finding: run.id, loses: emails(losing, 'run') },
      { resource: approve.resource, permission: 'approve', finding: approve.id, gains: emails(3, 'approve') },
    ],
  };
}

/** report.json written as the CLI writes it, beside the page or elsewhere. */
function writeJson(name: string, report: Report): string {
  const path = join(OUTPUT, name);
  writeFileSync(path, renderJson(report));
  return path;
}

describe.skipIf(!hasChromium)('access people on demand', () => {
  let browser: Browser;
  let page: Page;
  let pageBytes: number;
  let reportJson: string;

  beforeAll(async () => {
    browser = await launchChromium();
    const report = reportWith();
    const written = writeReportPage('access-on-demand', report, { appUrl: 'https://app.us.getport.io' });
    pageBytes = written.bytes;
    reportJson = writeJson('access-on-demand/report.json', report);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(written.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const lineOf = (finding: { id: string }) => page.locator(`#f-${finding.id} details.access-line`);

  it('shows the counts with a way to open report.json, and no email is in the page', async () => {
    expect(pageBytes).toBeLessThan(emails(LOSING, 'run').join('').length);
    await lineOf(run).locator('summary').click();
    expect(await lineOf(run).locator('summary').textContent()).toBe(`${LOSING} people lose the right to run this`);
    expect(await lineOf(run).locator('.access-load').textContent()).toContain('Open report.json');
    expect(await lineOf(run).locator('.access-emails li').count()).toBe(0);
    expect(await page.content()).not.toContain('p00000+run@example.com');
  });

  it('refuses a report.json of another organization, and one of another run of this one', async () => {
    await lineOf(run).locator('input[type=file]').setInputFiles(writeJson('other-org.json', reportWith({ id: 'org_other', name: 'Other' })));
    await expect.poll(() => lineOf(run).locator('.access-load-status').textContent()).toBe('Not read: the file is not a report.json of organization org_synthetic with access.');
    await lineOf(run).locator('input[type=file]').setInputFiles(writeJson('other-run.json', reportWith(undefined, 12)));
    await expect.poll(() => lineOf(run).locator('.access-load-status').textContent()).toContain('does not list the people this page counted');
    expect(await lineOf(run).locator('.access-emails li').count()).toBe(0);
  });

  it('lists the people of every count from the report.json written with the page, each linked to their user page', async () => {
    await lineOf(run).locator('input[type=file]').setInputFiles(reportJson);
    await expect.poll(() => lineOf(run).locator('.access-emails li').count()).toBe(LOSING);
    const first = lineOf(run).locator('.access-emails a.entity-link').first();
    expect(await first.textContent()).toBe('p00000+run@example.com');
    expect(await first.getAttribute('href')).toBe('https://app.us.getport.io/_userEntity?identifier=p00000%2Brun%40example.com');
    // The other finding's list fills from the same file, without a second pick.
    await lineOf(approve).locator('summary').click();
    expect(await lineOf(approve).locator('.access-emails li').allTextContents()).toEqual(emails(3, 'approve'));
  });
});
