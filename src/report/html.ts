import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { PACKAGE_ROOT } from '../package-root.js';
import type { Report } from '../model/finding.js';
import { cspHash, scriptSafeJson } from './escape.js';
import { rewrittenRuns } from '../output/rewritten-runs.js';
import { jsonPieces } from './json-pieces.js';
import { buildReportView, type RenderMeta } from './view-model.js';
import { htmlControlsEscaped, markupEscape, workflowCommandsDisarmed } from '../terminal-text.js';

const TEMPLATES = new URL('templates/', PACKAGE_ROOT);

/** Our own instance: no global helpers or partials leak in or out. */
const handlebars = Handlebars.create();

interface Assets {
  template: Handlebars.TemplateDelegate;
  css: string;
  js: string;
  /** The page's only policy: its own inline style and script, by hash; nothing from anywhere. */
  csp: string;
}

let assets: Assets | undefined;

function loadAssets(): Assets {
  if (!assets) {
    const read = (name: string) => readFileSync(new URL(name, TEMPLATES), 'utf8');
    const css = read('report.css');
    const js = read('report.js');
    const csp = [
      "default-src 'none'",
      `script-src ${cspHash(js)}`,
      `style-src ${cspHash(css)}`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    // strict: a key the view model forgot is an error, not a silently empty cell.
    assets = { template: handlebars.compile(read('report.hbs'), { strict: true }), css, js, csp };
  }
  return assets;
}

/**
 * A pure function of the report and the run's metadata: one self-contained HTML file. The script
 * and stylesheet are static, so their CSP hashes are computed once; the findings travel as JSON in a
 * non-executable script element and the page's script builds the rows with textContent only.
 */
export function renderHtml(report: Report, meta: RenderMeta): string {
  return [...htmlPieces(report, meta)].join('');
}

/**
 * The page made piece by piece (issue 41): the template around the data, then the data's JSON a run
 * at a time. Of a 124 MB page, the data is nearly all, and the whole page as one string, rewritten
 * twice, cost a gigabyte at once. The pieces join into the page renderHtml always wrote: the data
 * has no line break of its own (JSON escapes them) and follows the element's `>`, so no line of it
 * can start a workflow command, and every other rewrite acts on one character or on `##[`, which no
 * run splits (a run ends at a whole JSON value or at punctuation between two).
 */
export function htmlPieces(report: Report, meta: RenderMeta): Iterable<string> {
  const { template, css, js, csp } = loadAssets();
  const view = buildReportView(report, meta);
  // Org text may hold ESC, NUL or bidi overrides: none reaches the page raw, nor a workflow command.
  const page = workflowCommandsDisarmed(htmlControlsEscaped(template({ ...view, css, js, csp, dataJson: DATA_PLACE })), markupEscape);
  const at = page.indexOf(DATA_PLACE);
  if (at < 0 || page.indexOf(DATA_PLACE, at + 1) >= 0) throw new Error('the page template must hold its data exactly once');
  // The template is filled here, at the call, so a renderer's failure is one before any file is written.
  return (function* () {
    yield page.slice(0, at);
    yield* rewrittenRuns(jsonPieces(view.client), (json) => htmlControlsEscaped(scriptSafeJson(json)));
    yield page.slice(at + DATA_PLACE.length);
  })();
}

/** Where the data goes: markup org text can never be (it is HTML-escaped), and no rewrite of the page changes. */
const DATA_PLACE = '<tma-report-data/>';
