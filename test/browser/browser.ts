import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { Report } from '../../src/model/finding.js';
import { renderHtml } from '../../src/report/html.js';

/** Debian's Chromium; playwright-core cannot download a browser here, and CI installs this one. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const SKIP_REASON = `browser tests SKIPPED: ${CHROMIUM} not found (apt-get install chromium, as .ci/run does)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Tests write their pages and screenshots under output/ (git-ignored), where a person can open them. */
export const OUTPUT = resolve('output/browser-tests');

export function writeReportPage(name: string, report: Report, meta: { appUrl?: string } = {}): { path: string; url: string; bytes: number } {
  const html = renderHtml(report, { generatedAt: '2026-01-02T03:04:05.000Z', source: `synthetic ${name}`, ...meta });
  const path = resolve(OUTPUT, name, 'index.html');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, html);
  return { path, url: pathToFileURL(path).href, bytes: Buffer.byteLength(html) };
}
