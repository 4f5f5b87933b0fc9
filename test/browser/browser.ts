import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
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

/**
 * Pages and screenshots go to a temporary folder, never into the user's output/; set
 * TMA_BROWSER_OUTPUT to a folder to keep them where a person can open them.
 */
export const OUTPUT = process.env.TMA_BROWSER_OUTPUT ? resolve(process.env.TMA_BROWSER_OUTPUT) : mkdtempSync(join(tmpdir(), 'tma-browser-'));

export function writeReportPage(name: string, report: Report, meta: { appUrl?: string } = {}): { path: string; url: string; bytes: number } {
  const html = renderHtml(report, { generatedAt: '2026-01-02T03:04:05.000Z', source: `synthetic ${name}`, ...meta });
  const path = resolve(OUTPUT, name, 'index.html');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, html);
  return { path, url: pathToFileURL(path).href, bytes: Buffer.byteLength(html) };
}

/**
 * Reloads until `read` gives `expected`, at most `attempts` times, and returns the last reading.
 * Chromium hands a localStorage write to its storage service asynchronously; on a loaded machine a
 * reload can start before the write arrives, and the page reads the older state once, at start.
 * A state that was never kept still fails: every reload reads it.
 */
export async function readAfterReload<T>(page: Page, read: () => Promise<T>, expected: T, attempts = 8): Promise<T> {
  let last!: T;
  for (let attempt = 0; attempt < attempts; attempt++) {
    // Back off between reloads (0, 50, 100 … 3,200 ms): five reloads back to back all came before the
    // write at load 15 on 2 cores. Only the retries wait; nothing here asserts a time.
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    await page.reload();
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return last;
  }
  return last;
}
