import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Report } from '../../src/model/finding.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';
import { hasChromium, launchChromium } from '../browser/browser.js';
import { demoReport, demoSnapshotJson } from '../ci/helpers.js';
import { runCliCaptured } from '../cli/run-cli.js';

// summary.md goes to GITHUB_STEP_SUMMARY and the CI log, report.junit.xml to CI test tabs: org and
// file text in them must not act on a terminal (OSC retitle, BEL, C1 CSI, bidi reordering), and
// the XML must stay XML (1.0 cannot hold most C0 characters at all).

/** OSC 0 (window title) ended by BEL, SOH, a C1 CSI, DEL, a bidi override and a line separator. */
const HOSTILE = 'Acme \u001b]0;pwn\u0007\u0001\u009b2J\u007f\u202eevil\u2028x';
/** What the one helper shows instead: each control as an escape, all other text kept. */
const SHOWN = 'Acme \\x1b]0;pwn\\x07\\x01\\x9b2J\\x7f\\u202eevil\\u2028x';
const STALE_ID = 'gone\u001b]0;pwn\u0007\u202e';

/** Any control but the line ends and tabs the formats use themselves. */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The same in Markdown, whose own escaping of the org text comes first (`]` as `\]`). */
const MD_SHOWN = 'Acme \\x1b\\]0;pwn\\x07\\x01\\x9b2J\\x7f\\u202eevil\\u2028x';

describe('control characters in org and file text', () => {
  let dir: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tma-controls-'));
    const snapshot = demoSnapshotJson();
    (snapshot.organization as { name: string }).name = HOSTILE;
    writeFileSync(join(dir, 'org.json'), JSON.stringify(snapshot));
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted: [{ id: STALE_ID, reason: 'r', by: 'b' }] }));
    const run = await runCliCaptured(
      ['analyze', '--snapshot', join(dir, 'org.json'), '--baseline', join(dir, 'baseline.json'), '--out', join(dir, 'out'), '--format', 'json,sarif,junit,md', '--fail-on', 'none'],
      { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') },
    );
    expect(run.code, run.stderr).toBe(0);
    if (hasChromium) browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  const file = (name: string) => readFileSync(join(dir, 'out', name), 'utf8');

  it('summary.md and the step summary show the org name and the stale baseline id as escapes', () => {
    const md = file('summary.md');
    expect(readFileSync(join(dir, 'step-summary.md'), 'utf8')).toBe(md);
    expect(md).not.toMatch(RAW_CONTROL);
    expect(md).toContain(`## Teams migration audit: ${MD_SHOWN}\n`);
    expect(md).toContain('- gone\\x1b\\]0;pwn\\x07\\u202e\n');
    // report.json keeps the name as it is: it is data, and JSON escapes its own way.
    expect((JSON.parse(file('report.json')) as Report).organization.name).toBe(HOSTILE);
  });

  it('report.junit.xml is well-formed XML that names the org with the same escapes', async () => {
    const xml = file('report.junit.xml');
    expect(xml).not.toMatch(RAW_CONTROL);
    expect(xml).toContain(`<testsuites name="teams-migration-audit: ${SHOWN}"`);
    if (!browser) return console.warn('XML parse SKIPPED: no Chromium');
    // Chromium's XML parser is strict: one character XML cannot hold is a parse error.
    const page = await browser.newPage();
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return { error: doc.getElementsByTagName('parsererror').length > 0, name: doc.documentElement.getAttribute('name') };
    }, xml);
    expect(parsed).toEqual({ error: false, name: `teams-migration-audit: ${SHOWN}` });
    // The check can fail: the raw name is not XML.
    const raw = await page.evaluate(
      (text) => new DOMParser().parseFromString(text, 'application/xml').getElementsByTagName('parsererror').length > 0,
      `<?xml version="1.0"?><a name="${HOSTILE}"/>`,
    );
    expect(raw).toBe(true);
    await page.close();
  });

  it('report.sarif holds no raw control character, keeps the data exact, and shows escapes in messages', () => {
    const text = file('report.sarif');
    expect(text).not.toMatch(RAW_CONTROL);
    const sarif = JSON.parse(text) as { runs: { properties: { organization: { name: string } } }[] };
    expect(sarif.runs[0]!.properties.organization.name).toBe(HOSTILE);
  });

  it('escapes any other org or file text: identifiers, locations, rewrites, notes, unreadable items', () => {
    const report = demoReport([
      {
        category: 'external-ownership',
        resource: { type: 'file', identifier: `infra/${HOSTILE}.tf` },
        location: `infra/${HOSTILE}.tf:3`,
        evidence: HOSTILE,
        reason: `reads ${HOSTILE}`,
        suggestion: 's',
        verdict: 'breaks',
        rewrite: HOSTILE,
      },
    ]);
    report.notes = [`note ${HOSTILE}`];
    report.incomplete = [{ resource: `page ${HOSTILE}`, reason: `HTTP 403 ${HOSTILE}` }];
    const md = renderMarkdown(report, { topItems: 100 });
    expect(md).not.toMatch(RAW_CONTROL);
    expect(md).toContain(`infra/${MD_SHOWN}.tf:3`);
    expect(md).toContain(`- page ${MD_SHOWN}: HTTP 403 ${MD_SHOWN}`);
    const xml = renderJunit(report);
    expect(xml).not.toMatch(RAW_CONTROL);
    expect(xml).toContain(`rewrite: ${SHOWN}`);
    const sarif = renderSarif(report, { toolVersion: '0.0.0', orgArtifactUri: 'org.json' });
    expect(sarif).not.toMatch(RAW_CONTROL);
    const results = (JSON.parse(sarif) as { runs: { results: { message: { text: string }; properties: { rewrite?: string } }[] }[] }).runs[0]!.results;
    const hostile = results.find((r) => r.properties.rewrite === HOSTILE);
    expect(hostile?.message.text).toContain(`reads ${SHOWN}`);
    expect(results.every((r) => !RAW_CONTROL.test(r.message.text))).toBe(true);
  });
});
