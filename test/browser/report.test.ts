import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { hasChromium, launchChromium, OUTPUT, readAfterReload, SKIP_REASON, writeReportPage } from './browser.js';
import { finding, reportOf } from './synthetic-report.js';

if (!hasChromium) {
  // Loud in the log and listed as skipped by name, never a silent pass.
  console.warn(SKIP_REASON);
  describe('HTML report in Chromium', () => it.skip(SKIP_REASON, () => {}));
}

async function analyzeToPage(name: string, snapshot: string): Promise<{ url: string; report: Report }> {
  const out = join(OUTPUT, name);
  const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', out, '--fail-on', 'none', '--quiet']);
  expect(run.code).toBe(0);
  return {
    url: pathToFileURL(join(out, 'index.html')).href,
    report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report,
  };
}

const shownIds = (page: Page) => page.$$eval('article.finding', (els) => els.map((e) => (e as HTMLElement).dataset.id ?? ''));
const sorted = (ids: string[]) => [...ids].sort();
const idsWhere = (report: Report, keep: (f: Finding) => boolean) => sorted(report.findings.filter(keep).map((f) => f.id));

describe.skipIf(!hasChromium)('HTML report in Chromium', () => {
  let browser: Browser;
  let demo: { url: string; report: Report };
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium();
    demo = await analyzeToPage('demo', 'fixtures/demo-org.json');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh profile per test: localStorage starts empty unless the test reloads within it. */
  async function openPage(url: string): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }
  afterAll(async () => context?.close());

  it('opens the demo report from file:// with no network request and no CSP violation, and writes a screenshot', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(demo.url, { waitUntil: 'load' });

    // The one request is the file itself: no script, style, font, image or fetch from anywhere.
    expect(requests).toEqual([demo.url]);
    expect(await page.evaluate(() => performance.getEntriesByType('resource').length)).toBe(0);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    // The hashed script ran (it builds the cards) and the hashed stylesheet applied.
    expect(await page.locator('article.finding').count()).toBe(demo.report.findings.length);
    expect(await page.locator('#filters').evaluate((f) => getComputedStyle(f).position)).toBe('sticky');

    mkdirSync(join(OUTPUT, 'screenshots'), { recursive: true });
    const screenshot = join(OUTPUT, 'screenshots', 'demo.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: join(OUTPUT, 'screenshots', 'demo-print.png'), fullPage: true });
    await context.close();
  });

  it('shows the XSS fixture as text and executes nothing', async () => {
    const xss = await analyzeToPage('xss', 'fixtures/xss-org.json');
    context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.goto(xss.url);
    // Hover and focus everything, in case a payload landed in an event attribute.
    await page.locator('article.finding h4').first().hover();
    await page.keyboard.press('Tab');

    expect(dialogs).toEqual([]);
    const injected = await page.evaluate(() => ({
      images: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script').length,
      svgs: [...document.querySelectorAll('svg')].filter((s) => !s.classList.contains('bar')).length,
      handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
    }));
    expect(injected).toEqual({ images: 0, scripts: 2, svgs: 0, handlers: [] });
    // The payloads are there, as text.
    expect(await page.locator('h1').textContent()).toContain("Evil <img src=x onerror=alert(1)> Corp</script><script>alert('org')</script>");
    expect(await page.locator('article.finding .title').first().textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(await page.locator('article.finding').count()).toBe(xss.report.findings.length);
    const evidence = await page.locator('article.finding pre code').allTextContents();
    expect(evidence.some((text) => text.includes('"</script><script>alert(1)</script>"'))).toBe(true);
    await context.close();
  });

  it('keeps a checked box across a reload, per organization, and counts it in the progress bar', async () => {
    const page = await openPage(demo.url);
    const manual = demo.report.findings.filter((f) => f.kind === 'manual');
    const target = manual[2] as Finding;
    const box = page.locator(`#f-${target.id} input[type=checkbox]`);
    await expect(page.locator('#progress-text').textContent()).resolves.toBe(`0 of ${manual.length} (0%)`);
    await box.check();
    expect(await readAfterReload(page, () => page.locator(`#f-${target.id} input[type=checkbox]`).isChecked(), true)).toBe(true);
    expect(await page.locator('article.finding input:checked').count()).toBe(1);
    // Rounded to whole percent: 1 of the demo's manual items.
    expect(await page.locator('#progress-text').textContent()).toBe(`1 of ${manual.length} (${Math.round(100 / manual.length)}%)`);
    expect(await page.locator('#progress').evaluate((p) => (p as HTMLProgressElement).value)).toBe(1);
    const stored = await page.evaluate(() => ({ ...localStorage }));
    expect(JSON.parse(stored[`teams-migration-audit:review:${demo.report.organization.id}`] ?? '{}')).toEqual({ [target.id]: true });
    // The box is labelled, so a screen reader says what it is for.
    const label = await page.locator(`#f-${target.id} label.review-box`).textContent();
    expect(label).toContain(`Reviewed: ${target.resource.type} ${target.resource.identifier}, ${target.location}`);
    // Unchecking is remembered too.
    await page.locator(`#f-${target.id} input[type=checkbox]`).uncheck();
    // isChecked waits for the box, so a page that builds no rows fails here instead of counting none.
    expect(await readAfterReload(page, () => page.locator(`#f-${target.id} input[type=checkbox]`).isChecked(), false)).toBe(false);
    expect(await page.locator('article.finding input:checked').count()).toBe(0);
    await context.close();
  });

  it('filters by kind, category, resource type, verdict and reviewed state, searches, and keeps the filter in the URL', async () => {
    const page = await openPage(demo.url);
    const all = demo.report;
    expect(sorted(await shownIds(page))).toEqual(idsWhere(all, () => true));

    await page.selectOption('#f-kind', 'manual');
    expect(sorted(await shownIds(page))).toEqual(idsWhere(all, (f) => f.kind === 'manual'));
    expect(await page.locator('#match-count').textContent()).toBe(`${all.summary.manual} of ${all.findings.length} findings match`);
    // The part with nothing left says so instead of showing an empty heading.
    // (The automatic part is folded, so the note is there, not on screen.)
    expect(await page.locator('#empty-automatic').evaluate((e) => (e as HTMLElement).hidden)).toBe(false);
    expect(await page.locator('#empty-automatic').textContent()).toBe('Nothing here matches the filter.');

    await page.selectOption('#f-verdict', 'review');
    expect(sorted(await shownIds(page))).toEqual(idsWhere(all, (f) => f.kind === 'manual' && f.verdict === 'review'));

    await page.selectOption('#f-kind', '');
    await page.selectOption('#f-verdict', '');
    await page.selectOption('#f-category', 'page-widget');
    await page.selectOption('#f-type', 'page');
    const pageWidgets = idsWhere(all, (f) => f.category === 'page-widget' && f.resource.type === 'page');
    expect(pageWidgets.length).toBeGreaterThan(1);
    expect(sorted(await shownIds(page))).toEqual(pageWidgets);
    expect(new URL(page.url()).hash).toBe('#category=page-widget&type=page');

    // The hash survives a reload and restores the controls.
    await page.reload();
    expect(await page.locator('#f-category').inputValue()).toBe('page-widget');
    expect(sorted(await shownIds(page))).toEqual(pageWidgets);
    await page.click('#f-reset');
    await expect.poll(() => shownIds(page).then((ids) => ids.length)).toBe(all.findings.length);
    expect(new URL(page.url()).hash).toBe('');

    // Search covers identifiers, titles, locations and evidence, case-insensitively, all terms.
    // Enter applies a search at once (typing waits for a pause: tested below with the page's clock).
    const search = async (q: string, keep: (f: Finding) => boolean) => {
      await page.fill('#f-q', q);
      await page.press('#f-q', 'Enter');
      const expected = idsWhere(all, keep);
      expect(expected.length, `"${q}" should match something in the demo`).toBeGreaterThan(0);
      expect(sorted(await shownIds(page))).toEqual(expected);
    };
    const text = (f: Finding) => [f.resource.identifier, f.resource.title ?? '', f.location, f.evidence].join('\n').toLowerCase();
    await search('OWNING_TEAM', (f) => text(f).includes('owning_team'));
    await search('deploy_service', (f) => f.resource.identifier === 'deploy_service');
    await search('SRE dashboard', (f) => text(f).includes('sre') && text(f).includes('dashboard'));
    await search('widgets[0].excludedFields', (f) => f.location === 'widgets[0].excludedFields');
    await page.fill('#f-q', 'no such thing anywhere');
    await page.press('#f-q', 'Enter');
    expect(await shownIds(page)).toEqual([]);
    await page.fill('#f-q', '');
    await page.press('#f-q', 'Enter');

    // Reviewed state: tick two, then each reviewed filter shows its side.
    // Manual ones: the automatic part is folded on screen.
    const manualFindings = all.findings.filter((f) => f.kind === 'manual');
    const [a, b] = manualFindings;
    await page.locator(`#f-${a?.id} input[type=checkbox]`).check();
    await page.locator(`#f-${b?.id} input[type=checkbox]`).check();
    await page.selectOption('#f-reviewed', 'yes');
    expect(sorted(await shownIds(page))).toEqual(sorted([a?.id ?? '', b?.id ?? '']));
    await page.selectOption('#f-reviewed', 'no');
    expect((await shownIds(page)).length).toBe(all.findings.length - 2);
    // Ticking in the "not reviewed" view takes the item out of it.
    const c = manualFindings[5] as Finding;
    // click, not check(): the card leaves the page, so there is no box left to verify.
    await page.locator(`#f-${c.id} input[type=checkbox]`).click();
    expect(await shownIds(page)).not.toContain(c.id);
    expect((await shownIds(page)).length).toBe(all.findings.length - 3);
    await page.selectOption('#f-reviewed', '');

    // Chart bars and summary cards are links to filters; the chart is one folded line until opened.
    await page.click('#overview > summary');
    await page.click('.chart a.chart-label[href="#category=action-mapping"]');
    await expect.poll(() => page.locator('#f-category').inputValue()).toBe('action-mapping');
    expect(sorted(await shownIds(page))).toEqual(idsWhere(all, (f) => f.category === 'action-mapping'));
    await context.close();
  });

  it('filters by keyboard alone, with a visible focus ring', async () => {
    const page = await openPage(demo.url);
    await page.focus('#f-kind');
    const outline = await page.locator('#f-kind').evaluate((e) => getComputedStyle(e).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('ArrowDown'); // All → Automatic
    await expect.poll(() => shownIds(page).then((ids) => ids.length)).toBe(demo.report.summary.automatic);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-category');
    await context.close();
  });

  it('copies the new value with the copy button', async () => {
    const page = await openPage(demo.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const target = demo.report.findings.find((f) => f.kind === 'manual' && f.rewrite && f.rewriteCompiles) as Finding;
    await page.locator(`#f-${target.id} .after button.copy`).click();
    await expect.poll(() => page.locator(`#f-${target.id} .after button.copy`).textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(target.rewrite);
    await context.close();
  });

  it('exports the review state and imports it back into an empty browser', async () => {
    const page = await openPage(demo.url);
    const picked = demo.report.findings.filter((f) => f.kind === 'manual').slice(0, 3);
    for (const f of picked) await page.locator(`#f-${f.id} input[type=checkbox]`).check();
    await page.click('#review > summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const exportPath = join(OUTPUT, 'review-state.json');
    await download.saveAs(exportPath);
    const exported = JSON.parse(readFileSync(exportPath, 'utf8'));
    expect(exported).toEqual({
      format: 'teams-migration-audit/review-state/1',
      organization: demo.report.organization,
      reviewed: sorted(picked.map((f) => f.id)),
    });
    await context.close();

    // A different browser profile: nothing reviewed until the import.
    const fresh = await openPage(demo.url);
    expect(await fresh.locator('article.finding input:checked').count()).toBe(0);
    await fresh.setInputFiles('#import', exportPath);
    await expect.poll(() => fresh.locator('article.finding input:checked').count()).toBe(3);
    for (const f of picked) expect(await fresh.locator(`#f-${f.id} input[type=checkbox]`).isChecked()).toBe(true);
    expect(await fresh.locator('#progress-text').textContent()).toBe(`3 of ${demo.report.summary.manual} (${Math.round((3 / demo.report.summary.manual) * 100)}%)`);
    expect(await fresh.locator('#review-status').textContent()).toContain('Imported 3 reviewed items');
    expect(await readAfterReload(fresh, () => fresh.locator('article.finding input:checked').count(), 3)).toBe(3);

    // Another organization's file is refused, and changes nothing.
    const other = join(OUTPUT, 'review-state-other.json');
    writeFileSync(other, JSON.stringify({ ...exported, organization: { id: 'org_other', name: 'Other' }, reviewed: [demo.report.findings[0]?.id] }));
    await fresh.setInputFiles('#import', other);
    await expect.poll(() => fresh.locator('#review-status').textContent()).toContain('Not imported: the file is for organization org_other');
    expect(await fresh.locator('article.finding input:checked').count()).toBe(3);
    await context.close();
  });

  it('lists repository file findings under "Your repositories", by file and line', async () => {
    const file = (path: string, line: number, category: Finding['category'] = 'external-ownership') =>
      finding({ category, resource: { type: 'file', identifier: path }, location: `${path}:${line}`, verdict: 'breaks' });
    const report = reportOf([
      file('terraform/blueprints.tf', 88),
      file('gitops/.port/port-app-config.yml', 12, 'integration-mapping'),
      file('terraform/blueprints.tf', 14),
      finding({ category: 'page-widget', resource: { type: 'page', identifier: 'home' }, location: 'widgets[0]' }),
    ]);
    const page = await openPage(writeReportPage('repositories', report).url);
    const groups = await page.$$eval('#groups-repository > section.group', (sections) =>
      sections.map((s) => ({
        file: s.querySelector('h3 code')?.textContent,
        locations: [...s.querySelectorAll('article .location')].map((l) => l.textContent),
      })),
    );
    expect(groups).toEqual([
      { file: 'gitops/.port/port-app-config.yml', locations: ['gitops/.port/port-app-config.yml:12'] },
      { file: 'terraform/blueprints.tf', locations: ['terraform/blueprints.tf:14', 'terraform/blueprints.tf:88'] },
    ]);
    expect(await page.locator('#groups-manual article').count()).toBe(1);
    await page.selectOption('#f-type', 'file');
    expect(await page.locator('#groups-manual article').count()).toBe(0);
    expect(await page.locator('#groups-repository article').count()).toBe(3);
    await context.close();
  });

  describe('the page says each thing once, in its place (issue 31)', () => {
    /** Each card's rows by term: Suggestion, Change (its before and after), Why. */
    const rowsOf = (page: Page) =>
      page.$$eval('article.finding', (articles) =>
        articles.map((article) => {
          const rows: Record<string, string> = {};
          const terms = [...article.querySelectorAll('dl.finding-body > dt')];
          for (const dt of terms) if (!(dt as HTMLElement).hidden) rows[dt.textContent ?? ''] = (dt.nextElementSibling?.textContent ?? '').trim();
          return {
            id: (article as HTMLElement).dataset.id ?? '',
            rows,
            after: article.querySelector('.change .after pre')?.textContent ?? '',
            struck: article.querySelectorAll('.change del').length,
            badge: article.querySelector('.badge.verdict')?.textContent ?? '',
            tier: article.closest('section.group')?.querySelector('h3')?.firstChild?.textContent ?? '',
          };
        }),
      );
    const squeezed = (text: string) => text.replace(/[\s"'{}[\]:=,]/g, '');

    it('no Suggestion repeats its Change row, in any notation', async () => {
      const page = await openPage(demo.url);
      await page.click('#part-automatic > summary');
      const cards = await rowsOf(page);
      const withChange = cards.filter((card) => card.after !== '');
      expect(withChange.length).toBeGreaterThanOrEqual(30);
      for (const card of withChange) {
        if (card.rows.Suggestion === undefined) continue;
        expect(squeezed(card.rows.Suggestion), card.id).not.toContain(squeezed(card.after));
      }
      // A suggestion with no value below it is shown whole.
      for (const f of demo.report.findings.filter((x) => x.rewrite === undefined)) expect(cards.find((card) => card.id === f.id)?.rows.Suggestion).toBe(f.suggestion);
      await context.close();
    });

    it('a relation\'s data move sits under a heading that matches its badge, and strikes nothing through', async () => {
      const page = await openPage(demo.url);
      const relation = demo.report.findings.find((f) => f.category === 'relation-ownership' && f.rewrite !== undefined)!;
      const card = (await rowsOf(page)).find((c) => c.id === relation.id)!;
      expect(card.badge).not.toBe('No verdict');
      expect(card.tier.startsWith(`${card.badge} ·`), `${card.tier} / ${card.badge}`).toBe(true);
      expect(card.struck).toBe(0);
      expect(await page.locator(`#f-${relation.id} .change .before .change-label`).textContent()).toBe('The relation');
      // Every manual card is headed by its own badge.
      for (const c of (await rowsOf(page)).filter((x) => x.tier !== '' && x.badge !== '')) expect(c.tier.startsWith(`${c.badge} ·`), c.id).toBe(true);
      await context.close();
    });

    it('the Notes fold is titled for what it holds', async () => {
      const report: Report = {
        ...reportOf([finding({ category: 'page-widget', resource: { type: 'page', identifier: 'home' }, location: 'widgets[0]' })]),
        notes: ['blueprints[2].relations: expected an object, got an array (read as far as understood)', 'infra/big.bin: skipped, a binary file', 'permissions of 1 automation not read: only self-service actions carry execute/approve permissions'],
      };
      const page = await openPage(writeReportPage('notes', report).url);
      const title = await page.locator('#notes-h').textContent();
      expect(title).toBe('3 notes on what was read');
      expect(title).not.toContain('unexpected shape');
      await context.close();
    });

    it('Enter in the Accept reason field accepts, as the Accept button does', async () => {
      const page = await openPage(demo.url);
      const target = demo.report.findings.find((f) => f.kind === 'manual')!;
      await page.locator(`#f-${target.id} button.accept-open`).click();
      await page.locator(`#f-${target.id} .accept-reason`).fill('kept on purpose');
      await page.locator(`#f-${target.id} .accept-reason`).press('Enter');
      expect(await page.locator(`#f-${target.id} .accepted-here`).isVisible()).toBe(true);
      expect(await page.locator('#accepted-count').textContent()).toBe('1 in the baseline (1 accepted here)');
      // An empty reason is still refused, by Enter too.
      const other = demo.report.findings.filter((f) => f.kind === 'manual')[1]!;
      await page.locator(`#f-${other.id} button.accept-open`).click();
      await page.locator(`#f-${other.id} .accept-reason`).press('Enter');
      expect(await page.locator('#review-status').textContent()).toBe('Give a reason to accept an item.');
      expect(await page.locator(`#f-${other.id} .accepted-here`).isVisible()).toBe(false);
      await context.close();
    });

    it('the search waits for typing to pause (the page\'s clock, not real time), and Enter applies it at once', async () => {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      // The page's timers run on a clock the test moves by hand: no real waiting, no race with it.
      await page.clock.install({ time: new Date('2026-01-02T03:04:05Z') });
      await page.goto(demo.url);
      await page.clock.pauseAt(new Date('2026-01-02T03:05:00Z'));
      const all = demo.report.findings.length;
      // Each re-filter rewrites the match count: counted in the page, where the observer runs.
      await page.evaluate(() => {
        const counted = window as unknown as { renders: number };
        counted.renders = 0;
        new MutationObserver(() => counted.renders++).observe(document.getElementById('match-count')!, { childList: true, characterData: true, subtree: true });
      });
      const renders = () => page.evaluate(() => (window as unknown as { renders: number }).renders);
      await page.locator('#f-q').pressSequentially('deploy', { delay: 0 });
      // Six keystrokes, no pause yet: nothing filtered.
      expect(await page.locator('article.finding').count()).toBe(all);
      await page.clock.runFor(100);
      expect(await page.locator('article.finding').count()).toBe(all);
      await page.clock.runFor(200);
      await expect.poll(() => page.locator('#match-count').textContent()).toMatch(/ of \d+ findings match$/);
      const matching = demo.report.findings.filter((f) => [f.resource.identifier, f.resource.title ?? '', f.location, f.evidence].join('\n').toLowerCase().includes('deploy')).length;
      expect(await page.locator('article.finding').count()).toBe(matching);
      // One re-filter for the six keystrokes.
      expect(await renders()).toBe(1);
      // Enter does not wait.
      await page.locator('#f-q').fill('no such thing anywhere');
      await page.locator('#f-q').press('Enter');
      expect(await page.locator('article.finding').count()).toBe(0);
      await context.close();
    });
  });
});
