import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { hasChromium, launchChromium, SKIP_REASON, writeReportPage } from './browser.js';
import { decodePng } from './png.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('the first screen, accessibility and focus', () => it.skip(SKIP_REASON, () => {}));
}

const GOLDEN = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;
/** The demo as a CI run shows it: with the gate's answer above the counts. */
const DEMO: Report = { ...GOLDEN, gate: { failOn: 'manual', result: 'failed', failing: GOLDEN.summary.manual, accepted: 0 } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The demo with what a hard read leaves: notes on values of unknown shapes and resources that could not be read. */
const WITH_NOTES_AND_GAPS: Report = {
  ...GOLDEN,
  notes: Array.from({ length: 12 }, (_, i) => `pages[${i}].widgets[0].title: expected a string, got number ${i}`),
  incomplete: Array.from({ length: 8 }, (_, i) => ({ resource: `blueprint b${i}`, reason: 'HTTP 503 after 5 retries' })),
  gate: { failOn: 'manual', result: 'incomplete', failing: 20, accepted: 0 },
};

describe.skipIf(!hasChromium)('the first screen, accessibility and focus', () => {
  let browser: Browser;
  const demo = () => writeReportPage('first-screen-demo', DEMO, { appUrl: 'https://app.getport.io' }).url;
  const gaps = () => writeReportPage('first-screen-gaps', WITH_NOTES_AND_GAPS, { appUrl: 'https://app.getport.io' }).url;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  async function open(url: string, viewport = { width: 1440, height: 900 }, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    // bypassCSP only so the test can inject axe-core; the report's own policy is tested in report.test.ts.
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  for (const [name, report] of [['the demo', GOLDEN], ['the demo as CI gates it', DEMO]] as const) {
    it(`at 390 × 844 (a phone), shows the first breaking finding's head and location on the first screen for ${name}`, async () => {
      const page = await open(writeReportPage(`first-screen-phone-${report === DEMO ? 'ci' : 'demo'}`, report).url, { width: 390, height: 844 });
      const first = page.locator('article.finding.verdict-breaks').first();
      const box = (await first.boundingBox())!;
      const location = (await first.locator('.where').boundingBox())!;
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(box.y).toBeGreaterThan(0);
      // The head (type, identifier, verdict) and the first line of its location are inside the 844 px.
      expect(location.y + 20).toBeLessThan(844);
      await page.context().close();
    });
  }

  for (const [name, url] of [['the demo', demo], ['an org with notes and an incomplete read', gaps]] as const) {
    it(`at 1440 × 900, shows the first breaking finding on the first screen for ${name}`, async () => {
      const page = await open(url());
      const first = page.locator('article.finding.verdict-breaks').first();
      const box = await first.boundingBox();
      expect(box).not.toBeNull();
      // Its head (type, identifier, verdict) and the line with its location are inside the 900 px.
      expect(box!.y).toBeGreaterThan(0);
      expect(box!.y + 60).toBeLessThan(900);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // The gate and the counts are above it.
      for (const selector of ['.gate', '.cards']) expect((await page.locator(selector).boundingBox())!.y, selector).toBeLessThan(box!.y);
      await page.context().close();
    });
  }

  it('keeps the incomplete read and the notes named on the first screen, folded to one heading each', async () => {
    const page = await open(gaps());
    await expect(page.locator('#incomplete-h').textContent()).resolves.toBe('Incomplete: 8 items could not be read');
    await expect(page.locator('#notes-h').textContent()).resolves.toBe('12 notes on what was read');
    for (const selector of ['#incomplete-h', '#notes-h']) expect((await page.locator(selector).boundingBox())!.y).toBeLessThan(900);
    expect(await page.locator('.notes li').first().isVisible()).toBe(false);
    await page.click('.notes > summary');
    expect(await page.locator('.notes li').first().isVisible()).toBe(true);
    await page.context().close();
  });

  const layouts = [
    { name: 'light, 1440 px', viewport: { width: 1440, height: 900 }, scheme: 'light' },
    { name: 'dark, 1440 px', viewport: { width: 1440, height: 900 }, scheme: 'dark' },
    { name: 'light, 390 px', viewport: { width: 390, height: 844 }, scheme: 'light' },
    { name: 'dark, 390 px', viewport: { width: 390, height: 844 }, scheme: 'dark' },
  ] as const;
  for (const layout of layouts) {
    it(`axe-core finds no serious or critical violation (${layout.name}), every part unfolded`, async () => {
      for (const url of [demo(), gaps()]) {
        const page = await open(url, layout.viewport, layout.scheme);
        await page.$$eval('details', (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        if (layout.viewport.width < 720) await page.click('#filters-toggle');
        await page.addScriptTag({ content: AXE });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length, first: v.nodes[0]?.target.join(' ') }));
        });
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), url).toEqual([]);
        await page.context().close();
      }
    });
  }

  it('every control reached with Tab is visible: inside the screen and not under the sticky filter bar', async () => {
    const page = await open(demo());
    let checked = 0;
    // 80 steps forward (new controls come in at the bottom), then 40 back (they come in at the top, under the bar).
    for (let step = 0; step < 120; step++) {
      await page.keyboard.press(step < 80 ? 'Tab' : 'Shift+Tab');
      const state = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active || active === document.body) return null;
        const rect = active.getBoundingClientRect();
        const bar = document.getElementById('filters')!;
        const barRect = bar.getBoundingClientRect();
        const inBar = bar.contains(active);
        const barSticks = getComputedStyle(bar).position === 'sticky' && barRect.top <= 0.5;
        return {
          name: `${active.tagName} ${active.className} ${(active.textContent ?? '').slice(0, 30)}`,
          top: rect.top,
          bottom: rect.bottom,
          covered: !inBar && barSticks && rect.top < barRect.bottom,
          height: window.innerHeight,
          outline: getComputedStyle(active).outlineStyle,
        };
      });
      if (!state) continue;
      checked++;
      expect(state.covered, `step ${step}: ${state.name} under the filter bar`).toBe(false);
      expect(state.top, `step ${step}: ${state.name}`).toBeGreaterThanOrEqual(0);
      expect(state.bottom, `step ${step}: ${state.name}`).toBeLessThanOrEqual(state.height + 1);
      expect(state.outline, `step ${step}: ${state.name} has a focus ring`).not.toBe('none');
    }
    expect(checked).toBeGreaterThan(100);
    await page.context().close();
  });

  it('keeps the underscores of the value to type visible (screenshot of the marked change)', async () => {
    const page = await open(demo());
    const marked = page.locator('.after ins.chg', { hasText: 'sre_oncall' }).first();
    await marked.scrollIntoViewIfNeeded();
    const withUnderscore = decodePng(await marked.screenshot());
    // The same box with a space where the underscore is: if the underscore were hidden (under an
    // underline), both pictures would be the same.
    await marked.evaluate((node) => { node.textContent = (node.textContent ?? '').replace(/_/g, ' '); });
    const withSpace = decodePng(await marked.screenshot());
    expect([withSpace.width, withSpace.height]).toEqual([withUnderscore.width, withUnderscore.height]);
    let differing = 0;
    for (let i = 0; i < withUnderscore.rgba.length; i += 4) {
      const delta = Math.abs((withUnderscore.rgba[i] ?? 0) - (withSpace.rgba[i] ?? 0)) + Math.abs((withUnderscore.rgba[i + 1] ?? 0) - (withSpace.rgba[i + 1] ?? 0));
      if (delta > 96) differing++;
    }
    // An underscore of a monospace glyph is a few pixels wide and one or two high.
    expect(differing).toBeGreaterThanOrEqual(4);
    expect(await marked.evaluate((node) => getComputedStyle(node).textDecorationLine)).toBe('none');
    await page.context().close();
  });
});
