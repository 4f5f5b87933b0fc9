import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBaseline } from '../../src/baseline/baseline.js';
import type { Finding, Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { hasChromium, launchChromium, OUTPUT, readAfterReload, SKIP_REASON, writeReportPage } from './browser.js';
import { blockDifference, decodePng } from './png.js';
import { finding, reportOf } from './synthetic-report.js';

if (!hasChromium) {
  console.warn(SKIP_REASON);
  describe('HTML report as admins work with it', () => it.skip(SKIP_REASON, () => {}));
}

const GOLDEN = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;
// The committed image of the top of the demo report; rewrite it on purpose with UPDATE_SCREENSHOTS=1.
const SCREENSHOT = 'test/browser/__screenshots__/demo-top.png';
// Up to this share of inked 16 × 16 blocks may differ: fonts and antialiasing vary between machines.
const SCREENSHOT_TOLERANCE = 0.1;

async function analyzeToPage(name: string, args: string[] = [], snapshot = 'fixtures/demo-org.json'): Promise<{ url: string; report: Report; out: string }> {
  const out = join(OUTPUT, name);
  const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', out, '--fail-on', 'none', '--quiet', ...args]);
  expect(run.code).toBe(0);
  return { url: pathToFileURL(join(out, 'index.html')).href, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report, out };
}

/**
 * Opens every <details> (folded parts, tables, access lists) and checks nothing is wider than the
 * 390 px screen, also in print; `mustShow` names what must be there in each medium (print leaves
 * the folded panels and the checked references out, and lists the work as plain entries).
 */
async function expectNoSidewaysScrollUnfolded(page: Page, mustShow: { screen: string[]; print: string[] }): Promise<void> {
  const rightsOf = (selector: string) =>
    page.$$eval(selector, (els) => els.map((e) => ((e as HTMLElement).offsetParent === null ? -1 : e.getBoundingClientRect().right)));
  for (const media of ['screen', 'print'] as const) {
    await page.emulateMedia({ media });
    // The page redraws for print on the media query's change event, which arrives when the browser
    // gets to it (later on a loaded machine): wait for the event's work, not for a time.
    await expect.poll(() => page.evaluate(() => matchMedia('print').matches)).toBe(media === 'print');
    // Twice: opening a folded part can bring more <details> into the page.
    for (let pass = 0; pass < 2; pass++) await page.$$eval('details', (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    for (const selector of mustShow[media]) {
      // Shown once the redraw has run: every element laid out, none hidden.
      await expect.poll(() => rightsOf(selector)).toSatisfy((rights: number[]) => rights.length > 0 && rights.every((right) => right > 0));
      expect(Math.max(...(await rightsOf(selector))), `${selector} (${media})`).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), media).toBeLessThanOrEqual(390);
  }
}

const shownIds = (page: Page) =>
  page.$$eval('article.finding', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).dataset.id ?? ''));
const sorted = (ids: string[]) => [...ids].sort();

describe.skipIf(!hasChromium)('HTML report as admins work with it', () => {
  let browser: Browser;
  let demo: { url: string; report: Report; out: string };
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium();
    demo = await analyzeToPage('work-first');
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  async function openPage(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    context = await browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  it('1. opens on the manual work, breaking items first, the automatic part folded with its count', async () => {
    const page = await openPage(demo.url);
    const parts = await page.$$eval('main > .part', (els) => els.map((e) => [e.id, e.tagName, (e as HTMLDetailsElement).open ?? null]));
    expect(parts).toEqual([
      ['part-manual', 'SECTION', null],
      ['part-automatic', 'DETAILS', false],
    ]);
    expect(await page.locator('#part-automatic > summary').textContent()).toContain(`(${demo.report.summary.automatic})`);
    // In page order: every breaking item, then those to review or without a verdict, then the unaffected ones.
    const order = await page.$$eval('#part-manual article.finding', (els) => els.map((e) => e.className.match(/verdict-(\w+)/)?.[1] ?? ''));
    const rank = { breaks: 0, none: 1, review: 1, unaffected: 2 } as Record<string, number>;
    expect(order.length).toBe(demo.report.summary.manual);
    expect(order.map((v) => rank[v])).toEqual([...order.map((v) => rank[v] ?? 9)].sort((a, b) => a - b));
    expect(order[0]).toBe('breaks');
    // The first finding on screen is manual work: the automatic cards are folded away.
    expect(await page.locator('#part-automatic article.finding').first().isVisible()).toBe(false);
  });

  it('1. draws a stacked bar per category by verdict, with a legend, one colour per meaning and automatic in grey', async () => {
    const page = await openPage(demo.url);
    const legend = await page.$$eval('.legend .key', (keys) =>
      keys.map((k) => ({ tone: k.className.replace('key tone-', ''), colour: getComputedStyle(k.querySelector('.swatch') as Element).backgroundColor })),
    );
    // A key per verdict the manual work has (unaffected references are `verified`, not findings), then automatic.
    // In the order of the work: breaking, needing action, to review.
    const present = (['breaks', 'none', 'review', 'unaffected'] as const).filter((v) => demo.report.findings.some((f) => f.kind === 'manual' && (f.verdict ?? 'none') === v));
    expect(legend.map((k) => k.tone)).toEqual([...present, 'automatic']);
    expect(present.length).toBeGreaterThanOrEqual(3);
    // One meaning per colour: no two keys share one, and every bar segment is drawn in its key's colour.
    expect(new Set(legend.map((k) => k.colour)).size).toBe(legend.length);
    const segments = await page.$$eval('.chart a.seg', (segs) =>
      segs.map((s) => ({ tone: s.getAttribute('class')?.replace('seg tone-', '') ?? '', fill: getComputedStyle(s.querySelector('rect') as Element).fill })),
    );
    const colourOf = Object.fromEntries(legend.map((k) => [k.tone, k.colour]));
    for (const segment of segments) expect(segment.fill, segment.tone).toBe(colourOf[segment.tone]);
    const [r, g, b] = (colourOf.automatic ?? '').match(/\d+/g)!.map(Number);
    expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!)).toBeLessThan(32); // grey
    // The total bar adds up to the manual work.
    expect(await page.locator('.chart-total .chart-label .n').textContent()).toBe(String(demo.report.summary.manual));
  });

  it('1. a click on a bar segment or a card filters and scrolls the list into view', async () => {
    const page = await openPage(demo.url);
    const expectInView = async (id: string) => {
      const box = await page.locator(`#f-${id}`).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y).toBeLessThan(900);
    };
    await page.click('#overview > summary');
    await page.click('.chart-row a.chart-label[href="#category=action-mapping"]');
    const mapping = demo.report.findings.filter((f) => f.category === 'action-mapping');
    await expect.poll(() => page.locator('#f-category').inputValue()).toBe('action-mapping');
    expect(sorted(await shownIds(page))).toEqual(sorted(mapping.map((f) => f.id)));
    await expectInView((await shownIds(page))[0]!);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('.chart-row a.seg.tone-breaks[href="#category=action-mapping&verdict=breaks"] rect');
    await expect.poll(() => page.locator('#f-verdict').inputValue()).toBe('breaks');
    expect(sorted(await shownIds(page))).toEqual(sorted(mapping.filter((f) => f.verdict === 'breaks').map((f) => f.id)));
    await expectInView((await shownIds(page))[0]!);

    // The automatic card opens the folded part and shows its items.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('.cards .card.tone-automatic a');
    await expect.poll(() => page.locator('#part-automatic').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect((await shownIds(page)).length).toBe(demo.report.summary.automatic);
    await expectInView((await shownIds(page))[0]!);
  });

  it('2. shows each id (copyable), links the resource in the service, and marks exactly what changes', async () => {
    const page = await openPage(demo.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    expect(sorted(await page.locator('article.finding .finding-id').allTextContents())).toEqual(sorted(demo.report.findings.map((f) => f.id)));
    const first = demo.report.findings.find((f) => f.kind === 'manual') as Finding;
    await page.locator(`#f-${first.id} button.copy-id`).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(first.id);

    // The demo is read from a snapshot with no region: the service's default (eu) app.
    const action = demo.report.findings.find((f) => f.resource.type === 'action') as Finding;
    expect(await page.locator(`#f-${action.id} a.service-link`).getAttribute('href')).toBe(`https://app.getport.io/self-serve?action=${action.resource.identifier}`);
    const page_ = demo.report.findings.find((f) => f.resource.type === 'page') as Finding;
    expect(await page.locator(`#f-${page_.id} a.service-link`).getAttribute('href')).toBe(`https://app.getport.io/${page_.resource.identifier}`);

    // A relation read replaced by .team, and a title replaced by its identifier: only those are marked.
    const relation = demo.report.findings.find((f) => f.evidence === '.relations.owning_team | join(",")') as Finding;
    expect(await page.locator(`#f-${relation.id} .before del.chg`).allTextContents()).toEqual(['.relations.owning_team']);
    expect(await page.locator(`#f-${relation.id} .after ins.chg`).allTextContents()).toEqual(['.team']);
    const title = demo.report.findings.find((f) => f.rewrite === '.team | index("platform") != null') as Finding;
    expect(await page.locator(`#f-${title.id} .before del.chg`).allTextContents()).toEqual([title.evidence.match(/"([^"]+)"/)![1]]);
    expect(await page.locator(`#f-${title.id} .after ins.chg`).allTextContents()).toEqual(['platform']);
  });

  it('2. offers Copy only for values checked to compile, and --app-url sets the links', async () => {
    const report = reportOf([
      finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'svc' }, location: 'a', verdict: 'breaks', rewrite: '.team | index("platform")', rewriteCompiles: true }),
      finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'svc' }, location: 'b', verdict: 'breaks', rewrite: '.team | index("platform"', rewriteCompiles: false }),
      finding({ category: 'external-ownership', resource: { type: 'file', identifier: 'main.tf' }, location: 'main.tf:3', verdict: 'breaks', rewrite: 'ownership = { type = "Direct" }' }),
      finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'deploy' }, location: 'c', verdict: 'breaks', rewrite: '["platform"]' }),
    ]);
    const page = await openPage(writeReportPage('copy-checked', report, { appUrl: 'https://port.example.com' }).url);
    const copyable = await page.$$eval('article.finding', (els) => els.map((e) => [e.querySelector('.location')?.textContent, Boolean(e.querySelector('.after button.copy'))]));
    expect(Object.fromEntries(copyable)).toEqual({ a: true, b: false, 'main.tf:3': false, c: true });
    expect(await page.locator('article.finding:has(.location:text-is("b")) .unchecked').textContent()).toContain('not checked to compile');
    expect(await page.locator('article.finding:has(.location:text-is("c")) a.service-link').getAttribute('href')).toBe('https://port.example.com/self-serve?action=deploy');
    expect(await page.locator('article.finding:has(.location:text-is("main.tf:3")) a.service-link').count()).toBe(0);
  });

  it('2b. links the blast radius\'s example entity and each person losing access to their pages in the service', async () => {
    const calc = finding({
      category: 'calculation-property',
      resource: { type: 'blueprint', identifier: 'service' },
      location: 'calculationProperties.owner',
      verdict: 'breaks',
      impact: { entities: { changed: 1, read: 3, example: { identifier: 'cart service', before: '"A"', after: '"a"' } } },
    });
    const action = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'deploy' }, location: 'permissions.execute', verdict: 'breaks' });
    const report: Report = { ...reportOf([calc, action]), access: [{ resource: action.resource, permission: 'execute', finding: action.id, loses: ['ann+ops@x.io'] }] };
    const page = await openPage(writeReportPage('entity-links', report, { appUrl: 'https://app.us.getport.io' }).url);
    const entity = page.locator(`#f-${calc.id} a.entity-link`);
    expect(await entity.textContent()).toBe('Open entity cart service');
    expect(await entity.getAttribute('href')).toBe('https://app.us.getport.io/serviceEntity?identifier=cart%20service');
    const person = page.locator(`#f-${action.id} .access-emails a.entity-link`);
    expect(await person.textContent()).toBe('ann+ops@x.io');
    expect(await person.getAttribute('href')).toBe('https://app.us.getport.io/_userEntity?identifier=ann%2Bops%40x.io');
    // Without an app address the same entity is named in the text and not linked.
    const plain = await openPage(writeReportPage('entity-links-plain', report).url);
    expect(await plain.locator('a.entity-link').count()).toBe(0);
    expect(await plain.locator(`#f-${calc.id}`).textContent()).toContain('cart service');
  });

  it('3. accepts a finding with a reason and downloads a baseline that --baseline reads', async () => {
    const page = await openPage(demo.url);
    const picked = demo.report.findings.filter((f) => f.kind === 'manual' && f.verdict === 'breaks').slice(0, 2);
    await page.click('#review > summary');
    await page.fill('#accepted-by', 'alice');
    await page.dispatchEvent('#accepted-by', 'change');
    for (const f of picked) {
      await page.locator(`#f-${f.id} button.accept-open`).click();
      await page.locator(`#f-${f.id} .accept-reason`).fill(`kept on purpose: ${f.location}`);
      await page.locator(`#f-${f.id} button.accept-save`).click();
      expect(await page.locator(`#f-${f.id} .accepted-here`).isVisible()).toBe(true);
    }
    // Accepting needs a reason.
    const other = demo.report.findings.find((f) => f.kind === 'manual' && !picked.includes(f)) as Finding;
    await page.locator(`#f-${other.id} button.accept-open`).click();
    await page.locator(`#f-${other.id} button.accept-save`).click();
    expect(await page.locator('#review-status').textContent()).toBe('Give a reason to accept an item.');
    expect(await page.locator(`#f-${other.id} .accepted-here`).isVisible()).toBe(false);
    // Kept across a reload.
    expect(await readAfterReload(page, () => page.locator('article.finding.accepted-local').count(), 2)).toBe(2);
    await page.click('#review > summary');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-baseline')]);
    const file = join(OUTPUT, 'work-first', 'audit-baseline.json');
    await download.saveAs(file);
    const baseline = validateBaseline(JSON.parse(readFileSync(file, 'utf8')), file);
    expect(baseline.accepted).toEqual(
      picked.map((f) => ({ id: f.id, reason: `kept on purpose: ${f.location}`, by: 'alice', category: f.category, resource: `${f.resource.type} ${f.resource.identifier}`, location: f.location })),
    );
    // The CI gate reads it: exactly those two pass as accepted, with the reason given in the browser.
    const gated = await analyzeToPage('work-first-gated', ['--baseline', file]);
    const accepted = gated.report.findings.filter((f) => f.accepted);
    expect(accepted.map((f) => [f.id, f.accepted?.reason, f.accepted?.by])).toEqual(picked.map((f) => [f.id, `kept on purpose: ${f.location}`, 'alice']));
    expect(gated.report.gate?.accepted).toBe(2);
  });

  it('4. on a 390 px phone: no sideways scroll, the filter bar folds and does not stick, chart labels readable', async () => {
    const page = await openPage(demo.url, { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.locator('#filters').evaluate((f) => getComputedStyle(f).position)).toBe('static');
    expect(await page.locator('#f-q').isVisible()).toBe(false);
    await page.click('#filters-toggle');
    expect(await page.locator('#filters-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#f-q').isVisible()).toBe(true);
    await page.click('#overview > summary');
    const sizes = await page.$$eval('.chart-label', (labels) => labels.map((l) => parseFloat(getComputedStyle(l).fontSize)));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    // Labels sit above their bars and inside the screen.
    const rights = await page.$$eval('.chart-label, svg.bar', (els) => els.map((e) => e.getBoundingClientRect().right));
    expect(Math.max(...rights)).toBeLessThanOrEqual(390);
    await page.click('.chart a.chart-label[href="#kind=manual"]');
    await expect.poll(() => page.locator('#filters-toggle').textContent()).toBe('Filters (1 active)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The form's reset applies after the browser has reset the controls (a task of its own).
    await page.click('#f-reset');
    await expect.poll(() => page.locator('#filters-toggle').textContent()).toBe('Filters');
    await expectNoSidewaysScrollUnfolded(page, { screen: ['section.verified tbody tr'], print: ['article.print-card'] });
  });

  it('4. on a 390 px phone, the "Fixed since" table and the access lists unfold without sideways scroll, on screen and in print', async () => {
    const before = await analyzeToPage('work-first-before', [], 'fixtures/migration-before.json');
    const after = await analyzeToPage('work-first-after', ['--since', join(before.out, 'report.json')], 'fixtures/migration-after.json');
    await expectNoSidewaysScrollUnfolded(await openPage(after.url, { width: 390, height: 844 }), {
      screen: ['section.fixed-since tbody tr', 'section.verified tbody tr'],
      print: ['section.fixed-since tbody tr', 'article.print-card'],
    });
    const access = await analyzeToPage('work-first-access', [], 'fixtures/access-org.json');
    await expectNoSidewaysScrollUnfolded(await openPage(access.url, { width: 390, height: 844 }), { screen: ['.access-emails li'], print: ['article.print-card'] });
  });

  it('4. prints every item of the work with its id, the automatic part left out, and a full-page capture has no blank entry', async () => {
    const page = await openPage(demo.url);
    await page.emulateMedia({ media: 'print' });
    const work = demo.report.findings.filter((f) => f.kind === 'manual' && f.verdict !== 'unaffected');
    await expect.poll(() => page.locator('article.print-card').count()).toBe(work.length);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('#part-automatic').isVisible()).toBe(false);
    const cards = await page.$$eval('article.finding', (els) =>
      els.map((e) => ({ height: e.getBoundingClientRect().height, id: (e as HTMLElement).dataset.id ?? '', idShown: (e.querySelector('.fid') as HTMLElement | null)?.offsetParent !== null, skip: getComputedStyle(e).contentVisibility })),
    );
    expect(sorted(cards.map((card) => card.id))).toEqual(sorted(work.map((f) => f.id)));
    for (const card of cards) {
      expect(card.idShown, card.id).toBe(true);
      // Two lines at least: what and where, then the value.
      expect(card.height, card.id).toBeGreaterThan(20);
      // content-visibility: auto would leave off-screen entries blank in a full-page capture.
      expect(card.skip).not.toBe('auto');
    }
    const path = join(OUTPUT, 'screenshots', 'work-first-print.png');
    mkdirSync(dirname(path), { recursive: true });
    await page.screenshot({ path, fullPage: true });
    // The last card, far below the first screen, is painted: its region is not plain background.
    const image = decodePng(readFileSync(path));
    const last = await page.locator('article.finding').last().boundingBox();
    expect(image.height).toBeGreaterThanOrEqual(Math.round(last!.y + last!.height));
    let dark = 0;
    for (let y = Math.round(last!.y); y < Math.round(last!.y + last!.height); y++) {
      for (let x = Math.round(last!.x); x < Math.round(last!.x + last!.width); x++) if ((image.rgba[(y * image.width + x) * 4] ?? 255) < 128) dark++;
    }
    expect(dark).toBeGreaterThan(100);
  });

  it('matches the committed screenshot of the top of the demo report, within a tolerance', async () => {
    const page = await openPage(writeReportPage('screenshot', GOLDEN, { appUrl: 'https://app.getport.io' }).url, { width: 1280, height: 800 });
    const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 800 } });
    if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(SCREENSHOT)) {
      if (process.env.CI && !existsSync(SCREENSHOT)) throw new Error(`${SCREENSHOT} is missing: run UPDATE_SCREENSHOTS=1 npx vitest run test/browser locally and commit it`);
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      writeFileSync(SCREENSHOT, shot);
    }
    const expected = decodePng(readFileSync(SCREENSHOT));
    const actual = decodePng(shot);
    mkdirSync(join(OUTPUT, 'screenshots'), { recursive: true });
    writeFileSync(join(OUTPUT, 'screenshots', 'demo-top-actual.png'), shot);
    expect([actual.width, actual.height]).toEqual([1280, 800]);
    expect(blockDifference(actual, expected)).toBeLessThanOrEqual(SCREENSHOT_TOLERANCE);

    // The comparison can fail: the same top in the dark scheme is far over the tolerance.
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = decodePng(await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 800 } }));
    expect(blockDifference(dark, expected)).toBeGreaterThan(0.5);
  });
});
