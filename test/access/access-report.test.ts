/**
 * Issue 14: report.access in every format. The JSON matches the schema; Markdown and SARIF give
 * the counts; the HTML (in Chromium) shows the summary, per finding "4 people lose the right to
 * run this" unfolding to their emails, and filters to the findings that change access.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';
import { hasChromium, launchChromium, OUTPUT } from '../browser/browser.js';
import { validate } from '../ci/json-schema.js';
import { REPORT_SCHEMA } from '../ci/schemas.js';
import { runCliCaptured } from '../cli/run-cli.js';

const OUT = join(OUTPUT, 'access');
let report: Report;
beforeAll(async () => {
  const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/access-org.json', '--out', OUT, '--format', 'json,html', '--fail-on', 'none', '--quiet']);
  expect(run.code).toBe(0);
  report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8')) as Report;
}, 60_000);

const SUMMARY =
  '10 people lose access to 4 actions; 3 people gain access to 1 action; 4 people stop seeing 1 input; 1 permission could not be decided: it depends on data this tool does not have';

describe('report.access in JSON, Markdown and SARIF', () => {
  it('the JSON validates against schemas/report.schema.json', () => {
    expect(report.access?.length).toBe(7);
    expect(validate(REPORT_SCHEMA, report)).toEqual([]);
  });

  it('Markdown says the counts in one line', () => {
    expect(renderMarkdown(report)).toContain(`**Access:** ${SUMMARY} (see report.json \`access\`).`);
  });

  it('SARIF: the finding that changes access counts the people in its message and properties', () => {
    const sarif = JSON.parse(renderSarif(report, { toolVersion: '0.0.0', orgArtifactUri: 'org.json' })) as {
      runs: { results: { message: { text: string }; partialFingerprints: Record<string, string>; properties: Record<string, unknown> }[]; properties: Record<string, unknown> }[];
    };
    const deploy = report.access?.find((e) => e.resource.identifier === 'deploy' && e.permission === 'execute');
    const result = sarif.runs[0]!.results.find((r) => Object.values(r.partialFingerprints).includes(deploy?.finding ?? ''));
    expect(result?.message.text).toMatch(/ Access: 4 people lose the right to run this\.$/);
    expect(result?.properties.access).toEqual({ loses: 4, gains: 0 });
    const gains = report.access?.find((e) => e.resource.identifier === 'request-access');
    const gained = sarif.runs[0]!.results.find((r) => Object.values(r.partialFingerprints).includes(gains?.finding ?? ''));
    expect(gained?.properties.access).toEqual({ loses: 0, gains: 3 });
    expect(sarif.runs[0]!.properties.accessSummary).toBe(SUMMARY);
    // Emails stay in report.json: SARIF goes to code scanning, where counts are enough.
    expect(JSON.stringify(sarif)).not.toContain('@example.com');
  });

  it('a report without users says nothing about access', () => {
    const { access: _access, ...plain } = report;
    expect(renderMarkdown(plain)).not.toContain('**Access:**');
    const sarif = renderSarif(plain, { toolVersion: '0.0.0', orgArtifactUri: 'org.json' });
    expect(sarif).not.toContain('accessSummary');
    expect(sarif).not.toContain(' Access: ');
    expect(sarif).not.toContain('"access"');
  });
});

describe.skipIf(!hasChromium)('report.access in the HTML, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(pathToFileURL(join(OUT, 'index.html')).href);
  }, 60_000);
  afterAll(async () => browser?.close());

  it('shows the summary at the top', async () => {
    expect(await page.textContent('#access-headline')).toBe('10 people lose access to 4 actions');
    expect(await page.$$eval('.access-details li', (items) => items.map((li) => li.textContent))).toEqual(SUMMARY.split('; ').slice(1));
  });

  it('"Changes access" keeps exactly the findings that make someone lose or gain a permission', async () => {
    await page.selectOption('#f-access', 'yes');
    const shown = await page.$$eval('article.finding', (els) => els.map((e) => (e as HTMLElement).dataset.id ?? ''));
    const expected = (report.access ?? []).filter((e) => e.loses || e.gains).map((e) => e.finding!);
    expect([...shown].sort()).toEqual([...new Set(expected)].sort());
    expect(page.url()).toContain('#access=yes');
  });

  it('per finding: "4 people lose the right to run this", unfolding to their emails', async () => {
    const deploy = report.access?.find((e) => e.resource.identifier === 'deploy' && e.permission === 'execute');
    const card = page.locator(`#f-${deploy?.finding}`);
    const line = card.locator('details.access-loses');
    expect(await line.locator('summary').textContent()).toBe('4 people lose the right to run this');
    expect(await line.locator('li').first().isVisible()).toBe(false);
    await line.locator('summary').click();
    expect(await line.locator('li').allTextContents()).toEqual(['alice@example.com', 'bob@example.com', 'dave@example.com', 'peggy@example.com']);
    // The undecidable one says why instead of naming anyone.
    await page.selectOption('#f-access', '');
    const promote = report.access?.find((e) => e.resource.identifier === 'promote');
    expect(await page.locator(`#f-${promote?.finding} .access-undecidable`).textContent()).toContain('cannot be computed');
  });
});
